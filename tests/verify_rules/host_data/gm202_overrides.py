"""GM202: a lazily cached rotary table in a base Cell, recomputed by subclasses that replace `construct`
(mindnlp's Phi3 rotary embeddings): each class's attribute is its own scratch space."""

from mindspore import nn, ops


class Rotary(nn.Cell):
    def __init__(self, dim=4):
        super().__init__()
        self.dim = dim
        self.inv_freq = None

    def construct(self, x):
        if self.inv_freq is None:
            self.inv_freq = 1.0 / (10000 ** (ops.arange(0, self.dim).float() / self.dim))
        return x * self.inv_freq


class Scaled(Rotary):
    def construct(self, x):
        self.inv_freq = 0.5 / (10000 ** (ops.arange(0, self.dim).float() / self.dim))
        return x * self.inv_freq
