"""A bound graphmend cannot type: with unsafe fixes, `ops.arange` with int32 (float32 if it was a float)."""
import mindspore
import mindspore.numpy as mnp
from mindspore import nn, ops


class Positions(nn.Cell):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def construct(self, x):
        return ops.arange(x.shape[1] * self.scale, dtype=mindspore.int32)
