"""GM610: a `@classmethod` that construct calls (bench/limits row 13)."""

from mindspore import nn


class Scaled(nn.Cell):
    factor = 3

    @classmethod
    def double(cls, x):
        return x * 2

    def construct(self, x):
        return self.double(x) + 1
