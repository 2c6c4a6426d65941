"""GM102: numpy draws in construct are frozen into a static graph; ops draws are not."""

import mindspore as ms
import numpy as np
from mindspore import nn


class Noisy(nn.Cell):
    def construct(self, x):
        noise = ms.Tensor(np.random.rand(*x.shape), ms.float32)
        jitter = ms.Tensor(np.random.normal(0.0, 0.1, x.shape), ms.float32)
        picks = ms.Tensor(np.random.randint(0, 10, (x.shape[0],)), ms.int32)
        return x + noise + jitter, picks
