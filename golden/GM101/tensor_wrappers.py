import mindspore as ms
import numpy as np
from mindspore import nn


class Wrapped(nn.Cell):
    """Every spelling of a tensor around a numpy constructor is one expression, as for GM102."""

    def construct(self, x):
        a = ms.Tensor(np.ones((x.shape[0], 3)), ms.float32)
        b = ms.tensor(np.ones((x.shape[0], 3)), ms.float32)
        c = ms.Tensor.from_numpy(np.zeros((x.shape[0], 3), np.float16))
        d = ms.tensor(np.arange(x.shape[0])).astype(ms.int32)
        e = ms.Tensor(np.ones((2, 3)), ms.float32)  # a constant in every configuration: left alone
        return x, a, b, c, d, e
