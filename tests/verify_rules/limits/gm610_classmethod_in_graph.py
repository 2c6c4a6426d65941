"""GM610: a `@classmethod` that construct calls (bench/limits row 13)."""

from mindspore import nn


class Scaled(nn.Cell):
    factor = 3

    @classmethod
    def double(cls, x):
        return x * 2

    def construct(self, x):
        return self.double(x) + 1


class ThroughTheClass(Scaled):
    """The same classmethods called through the class: graph calls that graph-code discovery follows."""

    @classmethod
    def triple(cls, x):
        return x * 3

    def construct(self, x):
        return type(self).double(x) + self.__class__.triple(x) + Scaled.double(x)
