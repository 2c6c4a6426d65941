# numpy outside graph code runs once on the host: never touched.
import mindspore as ms
import numpy as np
from mindspore import nn


def make_mask(n):
    return ms.Tensor(np.triu(np.ones((n, n))), ms.float32)


class Net(nn.Cell):
    def __init__(self, n=4):
        super().__init__()
        self.mask = ms.Tensor(np.ones((n, n)), ms.float32)

    def construct(self, x):
        return x * self.mask

    def extra_repr(self):
        return str(np.zeros(3))


class NotACell:
    def construct(self, x):
        return np.ones((x.shape[0], 2))
