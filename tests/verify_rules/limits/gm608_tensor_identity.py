"""GM608 (report only): identity between two tensors (silent under LAX)."""

from mindspore import nn, ops


class Same(nn.Cell):
    def construct(self, x):
        h = ops.relu(x)
        y = h
        return h * 2 if y is h else h
