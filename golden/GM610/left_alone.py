import functools

from mindspore import nn


def classmethod(f):  # the file's own decorator, not the builtin
    return f


class Config:  # not a Cell: nothing compiles it
    @classmethod
    def make(cls):
        return cls()

    def construct(self, x):
        return self.make()


class Built(nn.Cell):
    @functools.cache
    def cached(self):
        return 2

    @classmethod
    def from_config(cls, cfg):  # never called from graph code: a constructor
        return cls()

    @classmethod
    def own_decorator(cls, x):
        return x

    def construct(self, x):
        return self.own_decorator(self, x) * 2


class NotACell:
    @__builtins__.classmethod
    def helper(cls, x):
        return x

    def construct(self, x):
        return self.helper(x)
