"""transpose forms that mean the same in every mode, and receivers that are not tensors."""

import numpy as np
from mindspore import nn, ops


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.transpose = ops.Transpose()
        self.perm = (0, 2, 1, 3)

    def construct(self, x):
        a = x.transpose()
        b = x.transpose(0, 2, 1, 3)
        c = x.transpose((0, 2, 1, 3))
        d = x.transpose(*self.perm)
        e = self.transpose(x, self.perm)
        f = ops.transpose(x, (0, 2, 1, 3))
        g = np.ones((2, 3)).transpose(1, 0)
        host = np.zeros((2, 3))
        h = host.transpose(1, 0)
        return a, b, c, d, e, f, g, h


def outside(x):
    return x.transpose(1, 2)
