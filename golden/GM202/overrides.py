import mindspore
from mindspore import nn, ops


class Rotary(nn.Cell):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim
        self.inv_freq = None

    def construct(self, x):
        if self.inv_freq is None:
            self.inv_freq = 1.0 / (10000 ** (ops.arange(0, self.dim, 2).float() / self.dim))
        return x * self.inv_freq


class Scaled(Rotary):
    def construct(self, x):
        self.inv_freq = 0.5 / (10000 ** (ops.arange(0, self.dim, 2).float() / self.dim))
        return x * self.inv_freq


class Yarn(Rotary):
    def construct(self, x):
        self.inv_freq = 0.25 / (10000 ** (ops.arange(0, self.dim, 2).float() / self.dim))
        return x * self.inv_freq


class Cached(nn.Cell):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim
        self.table = None

    def construct(self, x):
        if self.table is None:
            self.table = ops.arange(0, self.dim).float()
        return x * self.table


class Preset(Cached):
    def construct(self, x):
        self.table = ops.ones(self.dim)  # read by the base's construct through super()
        return super().construct(x)
