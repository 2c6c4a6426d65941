"""Calls that reach mindnlp's weight_norm without a top-level `from ... import weight_norm`: reported, no fix."""
from mindspore import nn

import mindnlp.modules.functional.weight_norm as wn


class Conv(nn.Cell):
    def __init__(self):
        super().__init__()
        from mindnlp.modules.weight_norm import weight_norm

        self.a = wn.weight_norm(nn.Conv1d(4, 4, 3), dim=0)
        self.b = weight_norm(nn.Conv1d(4, 4, 3))

    def construct(self, x):
        return self.b(self.a(x))
