"""Called through the class, a classmethod is a graph call too: `type(self).m(x)`, `self.__class__.m(x)`,
`Base.m(x)` (a Cell class of this file)."""

from mindspore import nn


class Base(nn.Cell):
    @classmethod
    def half(cls, x):
        return x / 2


class Scaled(Base):
    @classmethod
    def double(cls, x):
        return x * 2

    @classmethod
    def triple(cls, x):
        return x * 3

    def construct(self, x):
        return type(self).double(x) + self.__class__.triple(x) + Base.half(x)


class NotCalled(nn.Cell):
    @classmethod
    def build(cls, n):  # called from __init__ only: not graph code, left alone
        return n

    @classmethod
    def unused(cls, x):  # never called from graph code
        return x

    def __init__(self):
        super().__init__()
        self.n = NotCalled.build(3)

    def construct(self, x):
        return x * self.n + type(x).__name__.count("T")
