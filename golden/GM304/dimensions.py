import mindspore as ms
from mindspore import nn, ops


class Pairs(nn.Cell):
    """Every row against every row: the count is the batch."""

    def construct(self, x, y):
        n = x.shape[0]
        rows = ops.repeat_interleave(x, n, 0)
        cols = x.repeat_interleave(len(x), dim=1)
        kw = ops.repeat_interleave(input=y, repeats=y.shape[0] * 2, axis=0)
        return rows, cols, kw


class ReportOnly(nn.Cell):
    def construct(self, x):
        n = x.shape[0]
        negative = ops.repeat_interleave(x, n, -1)
        flat = ops.repeat_interleave(x, n)
        impure = ops.repeat_interleave(ops.relu(x), n, 0)
        return negative, flat, impure
