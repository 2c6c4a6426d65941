"""GM609: `v in t` on a tensor (STRICT and export reject it; LAX runs it through the Python fallback)."""

from mindspore import nn, ops


class Contains(nn.Cell):
    def construct(self, x):
        h = ops.round(x)
        if 2 in h:
            h = h * 2
        return h * 3 if -1 not in h else h
