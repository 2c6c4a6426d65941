import mindspore as ms
from mindspore import nn, ops


class Pairs(nn.Cell):
    """Every row against every row: the count is the batch."""

    def construct(self, x, y):
        n = x.shape[0]
        rows = ops.broadcast_to(x.expand_dims(1), x.shape[:1] + (n,) + x.shape[1:]).reshape((-1,) + x.shape[1:])
        cols = ops.broadcast_to(x.expand_dims(2), x.shape[:2] + (len(x),) + x.shape[2:]).reshape(x.shape[:1] + (-1,) + x.shape[2:])
        kw = ops.broadcast_to(y.expand_dims(1), y.shape[:1] + (y.shape[0] * 2,) + y.shape[1:]).reshape((-1,) + y.shape[1:])
        return rows, cols, kw


class ReportOnly(nn.Cell):
    def construct(self, x):
        n = x.shape[0]
        negative = ops.repeat_interleave(x, n, -1)
        flat = ops.repeat_interleave(x, n)
        impure = ops.repeat_interleave(ops.relu(x), n, 0)
        return negative, flat, impure
