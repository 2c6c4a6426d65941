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


class ConstantIndex(nn.Cell):
    """mindocr's PP_Layer: a constant index of a name is read three times at no cost."""

    def construct(self, enc_output):
        order = ops.arange(25)
        return ops.broadcast_to(order[None, ...].expand_dims(1), order[None, ...].shape[:1] + (enc_output.shape[0],) + order[None, ...].shape[1:]).reshape((-1,) + order[None, ...].shape[1:])


class ReportOnly(nn.Cell):
    def construct(self, x):
        n = x.shape[0]
        negative = ops.repeat_interleave(x, n, -1)
        flat = ops.repeat_interleave(x, n)
        impure = ops.repeat_interleave(ops.relu(x), n, 0)
        indexed = ops.repeat_interleave(x[n - 1 :], n, 0)  # the index reads the batch: computed each time
        return negative, flat, impure, indexed
