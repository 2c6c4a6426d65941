"""GM603: an assignment expression in an `if` test."""

from mindspore import nn


class Gate(nn.Cell):
    def construct(self, x):
        if (n := x.shape[1]) > 1:
            x = x * n
        if not isinstance(mapping := x, dict):
            x = mapping * 2
        if (s := x.sum()) > 0:
            x = x / s
        return x
