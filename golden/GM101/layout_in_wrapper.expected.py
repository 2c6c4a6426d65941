import mindspore
import numpy as np
from mindspore import Tensor, nn, ops


class Identity(nn.Cell):
    """A layout method between the numpy call and `Tensor(...)` is part of one expression: the wrapper goes."""

    def __init__(self, k=8):
        super().__init__()
        self.k = k

    def construct(self, x):
        eye = Tensor(np.eye(self.k).flatten().astype(np.float32))  # static: a constant everywhere, left alone
        rows = ops.eye(x.shape[0], x.shape[0], mindspore.float32).flatten()  # the batch: the wrapper goes
        grid = mindspore.tensor(np.ones((self.k, self.k)).reshape(1, 1, self.k, self.k), mindspore.float16)
        flat = ops.zeros((2, 3), mindspore.float64).reshape(-1)
        return x, eye, grid, flat


class LeftAlone(nn.Cell):
    """numpy's `order=` and methods that are not layout-only stay a report without a fix."""

    def construct(self, x):
        fortran = Tensor(np.ones((2, 3)).flatten("F"))
        summed = Tensor(np.ones((2, 3)).sum(0), mindspore.float32)
        return x, fortran, summed
