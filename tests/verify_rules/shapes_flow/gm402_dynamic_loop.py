"""GM402 (report only): a comprehension over the batch dimension fails with a dynamic batch."""

import mindspore as ms
from mindspore import nn, ops


class PerRow(nn.Cell):
    def construct(self, x):
        return ops.stack([x[i] * (i + 1) for i in range(x.shape[0])])
