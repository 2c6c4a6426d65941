import mindspore as ms
import numpy as np
from mindspore import nn


class Wrapped(nn.Cell):
    """Every spelling of a tensor around a numpy constructor is one expression, as for GM102."""

    def construct(self, x):
        a = ms.ops.ones((x.shape[0], 3), ms.float32)
        b = ms.ops.ones((x.shape[0], 3), ms.float32)
        c = ms.ops.zeros((x.shape[0], 3), ms.float16)
        d = ms.ops.arange(x.shape[0], dtype=ms.int32)
        e = ms.Tensor(np.ones((2, 3)), ms.float32)  # a constant in every configuration: left alone
        return x, a, b, c, d, e
