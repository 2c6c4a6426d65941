import mindspore as ms
import numpy as np
from mindspore import nn


class Wrapped(nn.Cell):
    """Every spelling of a tensor around a numpy constructor is one expression, as for GM102."""

    def construct(self, x):
        a = ms.Tensor(np.ones((2, 3)), ms.float32)
        b = ms.tensor(np.ones((2, 3)), ms.float32)
        c = ms.Tensor.from_numpy(np.zeros((2, 3), np.float16))
        d = ms.tensor(np.arange(4)).astype(ms.int32)
        return x, a, b, c, d
