import mindspore as ms
import numpy as np
from mindspore import nn


class Wrapped(nn.Cell):
    """Every spelling of a tensor around a numpy constructor is one expression, as for GM102."""

    def construct(self, x):
        a = ms.ops.ones((2, 3), ms.float32)
        b = ms.ops.ones((2, 3), ms.float32)
        c = ms.ops.zeros((2, 3), ms.float16)
        d = ms.ops.arange(4, dtype=ms.int32)
        return x, a, b, c, d
