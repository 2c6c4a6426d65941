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


class TrainingDropout(nn.Cell):
    """mindcv's DropPath in training: a Dropout takes its seed when it is built, so only a second instance
    built under another seed shows that its numbers are random (a dynamic batch draws other masks)."""

    def __init__(self):
        super().__init__()
        self.drop = nn.Dropout(p=0.5)

    def construct(self, x):
        return self.drop(x) * 2


class PerSampleDropout(nn.Cell):
    """mindcv's DropPath: a Dropout over a mask of one entry per sample. At batch 2 a second seed can draw
    the same two entries; the Cell is random all the same."""

    def __init__(self):
        super().__init__()
        self.drop = nn.Dropout(p=0.5)

    def construct(self, x):
        return x * self.drop(ops.ones((x.shape[0], 1), ms.float32))
