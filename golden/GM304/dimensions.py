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


class ConstantIndex(nn.Cell):
    """mindocr's PP_Layer: a constant index of a name is read three times at no cost."""

    def construct(self, enc_output):
        order = ops.arange(25)
        return ops.repeat_interleave(order[None, ...], enc_output.shape[0], 0)


class ReportOnly(nn.Cell):
    def construct(self, x):
        n = x.shape[0]
        negative = ops.repeat_interleave(x, n, -1)
        flat = ops.repeat_interleave(x, n)
        impure = ops.repeat_interleave(ops.relu(x), n, 0)
        indexed = ops.repeat_interleave(x[n - 1 :], n, 0)  # the index reads the batch: computed each time
        return negative, flat, impure, indexed
