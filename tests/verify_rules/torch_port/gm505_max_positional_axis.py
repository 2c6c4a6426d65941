"""GM505: positional `x.max(k)` / `x.min(k)`, used as a pair and as a tensor."""

from mindspore import nn, ops


class Pairs(nn.Cell):
    """Torch-style: PyNative's pair; GRAPH_MODE silently indexes the values instead."""

    def construct(self, x):
        top = x.max(-1)[0]
        indices = x.max(1)[1]
        scores, where = x.min(2)
        low = x.min(1, True)[0]
        return top, indices, scores, where, low


class Values(nn.Cell):
    """MindSpore-style: GRAPH_MODE's values; PyNative fails on a tuple used as a tensor."""

    def construct(self, x):
        norm = x.max(-2).expand_dims(-1)
        peak = ops.exp(x.max(1))
        shifted = x.min(1) - 1.0
        return norm, peak, shifted
