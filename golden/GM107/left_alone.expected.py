import mindspore as ms
import mindspore.numpy as mnp
import numpy as np
from mindspore import nn, ops


class LeftAlone(nn.Cell):
    """`astype` converts numpy dtypes; MindSpore dtypes, strings and `mindspore.numpy` are fine."""

    def construct(self, x):
        a = x.astype(np.float16)
        b = ops.cast(x, ms.float16)
        c = mnp.ones((2, 3), dtype=np.float32)
        d = ops.ones((2, 3), ms.float32)
        return a, b, c, d, np.float32
