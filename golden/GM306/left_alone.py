"""Look-alikes GM306 leaves alone: constant bounds, host numpy (GM101's), `ops.arange`, code outside the graph,
a local function called `arange`."""
import mindspore as ms
import mindspore.numpy as mnp
import numpy as np
from mindspore import nn, ops


class Assigner(nn.Cell):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim
        self.table = mnp.arange(dim)  # not graph code

    def construct(self, x):
        a = mnp.arange(self.dim)  # a constant: compiles everywhere
        b = mnp.arange(10, dtype=ms.float32)
        c = np.arange(x.shape[0])  # host numpy: GM101's
        d = ops.arange(x.shape[0])
        return a, b, c, d


def arange(n):
    return list(range(n))


class Shadowed(nn.Cell):
    def construct(self, x):
        return arange(x.shape[0])  # not mindspore.numpy's
