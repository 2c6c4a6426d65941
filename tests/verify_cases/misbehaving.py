"""Cells that misbehave in ways the verifier must survive and name (see misbehaving_fixed.py)."""

import ctypes
import os

import mindspore as ms
import numpy as np
from mindspore import nn, ops


class Spin(nn.Cell):
    """Never returns in PyNative."""

    def construct(self, x):
        while x.shape[0] > 0:
            x = x + 0
        return x


class Abort(nn.Cell):
    def construct(self, x):
        os.abort()
        return x


class Segfault(nn.Cell):
    def construct(self, x):
        ctypes.string_at(0)
        return x


class HostNoise(nn.Cell):
    """Host numpy noise: new in every PyNative call, frozen into a static graph."""

    def construct(self, x):
        return x + ms.Tensor(np.random.rand(*x.shape), ms.float32)


class Noise(nn.Cell):
    def construct(self, x):
        return x + ops.rand(*x.shape, dtype=ms.float32)
