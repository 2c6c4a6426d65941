from mindspore import nn


class Scaled(nn.Cell):
    factor = 3

    @classmethod
    def double(cls, x):  # never reads cls
        return x * 2

    @classmethod
    def by_factor(cls, x, /):
        return x * cls.factor

    def construct(self, x):
        return self.double(x) + self.by_factor(x)
