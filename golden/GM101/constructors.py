import mindspore as ms
import numpy as np
from mindspore import Tensor, nn


class Constructors(nn.Cell):
    def construct(self, x):
        n = x.shape[-1]
        eye = Tensor(np.eye(n), ms.float32)
        rect = np.eye(n, 2 * n, dtype=np.float32)
        count = Tensor(np.arange(n), ms.int32)
        steps = np.arange(1, 10, 2)
        floats = np.arange(0.0, 1.0, 0.25)
        grid = Tensor(np.linspace(0.0, 1.0, n), ms.float32)
        grid64 = np.linspace(-1.0, 1.0, 5)
        ones = Tensor(np.ones_like(x))
        zeros = np.zeros_like(x, dtype=np.float16)
        full = Tensor(np.full_like(x, 7.0), ms.float32)
        empty = Tensor(np.empty((2, n)), ms.float32)
        return eye, rect, count, steps, floats, grid, grid64, ones, zeros, full, empty
