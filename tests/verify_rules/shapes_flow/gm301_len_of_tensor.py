"""GM301: `len(x)` of a dynamic batch used as a shape (seed 002)."""

import mindspore as ms
from mindspore import nn, ops


class BatchFlatten(nn.Cell):
    def __init__(self):
        super().__init__()
        self.head = nn.Dense(48, 2)

    def construct(self, x):
        n = len(x)
        feats = ops.relu(x)
        return self.head(feats.view(n, -1)) * len(x)
