import mindspore as ms
import numpy as np
from mindspore import Tensor, nn


class Constructors(nn.Cell):
    def construct(self, x):
        n = x.shape[-1]
        eye = ms.ops.eye(n, n, ms.float32)
        rect = ms.ops.eye(n, 2 * n, ms.float32)
        count = ms.ops.arange(n, dtype=ms.int32)
        steps = ms.ops.arange(1, 10, 2, dtype=ms.int64)
        floats = ms.ops.arange(0.0, 1.0, 0.25, dtype=ms.float64)
        grid = ms.ops.linspace(0.0, 1.0, n)
        grid64 = ms.ops.linspace(-1.0, 1.0, 5).astype(ms.float64)
        ones = ms.ops.ones_like(x)
        zeros = ms.ops.zeros_like(x, dtype=ms.float16)
        full = ms.ops.full_like(x, 7.0, dtype=ms.float32)
        empty = ms.ops.zeros((2, n), ms.float32)
        return eye, rect, count, steps, floats, grid, grid64, ones, zeros, full, empty
