import mindspore as ms
import numpy as np
from mindspore import Tensor, nn, ops


class Casts(nn.Cell):
    """`Tensor(<tensor>, dtype)` is a cast written as a constructor."""

    def construct(self, x):
        half = (x * 2).astype(ms.float16)
        also = ops.relu(x).astype(ms.int32)
        same = x.mean(axis=1)
        shaped = Tensor(x.sum(), ms.float32, shape=(1,))
        raw = Tensor(x, ms.float32)
        return half, also, same, shaped, raw


class LeftAlone(nn.Cell):
    """Constant data, host data and inputs that may be Python numbers are not tensors."""

    def __init__(self, w=3, h=4):
        super().__init__()
        self.w = w
        self.h = h

    def construct(self, x, timestep, scale=1.0):
        W, H = self.w, self.h
        size = ms.Tensor([W + 1, H + 1])
        dims = Tensor([self.w + 1, self.h * 2], ms.int32)
        host = Tensor(np.ones(3), ms.float32)
        step = Tensor(timestep, ms.float32)
        factor = Tensor(scale)
        return x * size.sum() * dims.sum(), host, step, factor
