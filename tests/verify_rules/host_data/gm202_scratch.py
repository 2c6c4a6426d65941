"""GM202: plain attributes used as scratch space of one call (a value read later, an unread value, a
lazily built constant), which STRICT and export reject."""

import mindspore as ms
from mindspore import nn, ops


class Scratch(nn.Cell):
    def __init__(self):
        super().__init__()
        self.probs = None
        self.table = None

    def construct(self, x):
        self.probs = ops.softmax(x, -1)
        self.debug = x.sum()
        if self.table is None:
            self.table = ops.ones((4,), ms.float32)
        return self.probs * self.table
