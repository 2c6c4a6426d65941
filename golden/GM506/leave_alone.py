import numpy as np
from mindspore import nn, ops


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.expand = ops.ExpandDims()

    def construct(self, x, y, input_shape, sizes):
        a = x.expand_as(y)
        b = self.expand(x, 0)
        c = np.expand_dims(np.ones(2), 0)
        d = x.expand(input_shape)  # one int, or a tuple? reported
        e = x.expand(*sizes)
        return a, b, c, d, e


def host(t):
    return t.expand(2, 3)
