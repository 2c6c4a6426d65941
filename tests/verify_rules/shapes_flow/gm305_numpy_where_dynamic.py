"""GM305: `mindspore.numpy.where` in construct (mindaudio's AdditiveAngularMargin) and in a helper whose mask
its one caller makes (mindyolo's TaskAlignedAssigner; numpy's `.max(-1, keepdims=True)`, a tensor in
PyNative too): a dynamic batch fails."""

import math

import mindspore.numpy as np
from mindspore import nn, ops


class Margin(nn.Cell):
    def __init__(self, margin=0.2):
        super().__init__()
        self.cos_m, self.sin_m = math.cos(margin), math.sin(margin)
        self.th, self.mm = math.cos(math.pi - margin), math.sin(math.pi - margin) * margin

    def construct(self, x):
        cosine = ops.tanh(x)
        sine = ops.sqrt(1.0 - cosine * cosine)
        phi = cosine * self.cos_m - sine * self.sin_m
        out = np.where(cosine > self.th, phi, cosine - self.mm)
        return self.keep(out, ops.tile(out.max(-1, keepdims=True) > 0.1, (1, 5)))

    def keep(self, scores, mask):
        scores = ops.abs(scores)
        return np.where(mask, scores, ops.zeros_like(scores))
