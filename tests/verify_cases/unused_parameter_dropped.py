"""`CountsCalls` of unused_parameter.py rewritten wrongly: the count is no longer updated (its Parameter is
unused, and export leaves it out), which the export check must still catch."""

import numpy as np
from mindspore import Parameter, Tensor, nn


class CountsCalls(nn.Cell):
    def __init__(self):
        super().__init__()
        self.calls = Parameter(Tensor(0.0), name="calls", requires_grad=False)

    def construct(self, x):
        return x * 2
