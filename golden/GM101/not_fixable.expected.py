# Reported, but no fix: ops has no equal for these arguments, or the dtype cannot be known.
import numpy as np
from mindspore import nn


class Unfixable(nn.Cell):
    def construct(self, x, fill):
        shifted = np.eye(4, k=1)
        open_interval = np.linspace(0.0, 1.0, 8, endpoint=False)
        unknown = np.full((2, 2), fill)
        counted = np.arange(x.shape[0], dtype=self.index_dtype)
        literal = np.array([1.0, 2.0, 3.0])  # a constant: compiles everywhere, not this rule's business
        return shifted, open_interval, unknown, counted, literal
