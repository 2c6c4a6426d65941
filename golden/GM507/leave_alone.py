import numpy as np
from mindspore import nn, ops


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.tile = ops.Tile()

    def construct(self, x, n):
        a = x.repeat(2, axis=1)  # numpy's repeat: another meaning
        b = x.repeat_interleave(2, 1)
        c = np.arange(3).repeat(2)
        d = self.tile(x, (1, 2))
        e = x.repeat(n)  # one int, or a tuple? reported
        return a, b, c, d, e


def host(w):
    return w.repeat(4, 1)
