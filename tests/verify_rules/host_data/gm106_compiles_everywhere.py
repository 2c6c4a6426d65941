"""What the host-data rules leave alone because MindSpore 2.10 compiles it in every configuration."""

import mindspore as ms
import numpy as np
from mindspore import nn


class Scalars(nn.Cell):
    def __init__(self, dim=16):
        super().__init__()
        self.dim = dim

    def construct(self, x):
        s = x.mean().item()
        f = float(x.max())
        k = int(x.sum() > 0)
        flat = x.reshape(x.shape[0], int(np.prod(x.shape[1:])))
        y = x * s * f * k / np.sqrt(self.dim)
        if bool(x.min() > 0):
            y = y * 2
        return y, flat
