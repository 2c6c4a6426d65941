"""Setters that change what construct reads as a constant: reported (no fix)."""

from mindspore import Parameter, Tensor, nn


class Scaled(nn.Cell):
    def __init__(self, k=2):
        super().__init__()
        self.k = k
        self.use_bias = False
        self.steps = 0
        self._build()

    def _build(self):
        self.offset = 1.0  # called from __init__: before the first call

    def set_k(self, k):
        self.k = k

    def enable_bias(self):
        self.use_bias = True

    def step(self):
        self.steps += 1

    def construct(self, x):
        y = x * self.k + self.offset * self.steps
        if self.use_bias:
            y = y + 1
        return y
