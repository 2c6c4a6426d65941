"""GM503: torch's two-axis transpose (fails from 3-D up in GRAPH_MODE, silently wrong on 2-D)."""

from mindspore import nn, ops


class Attention(nn.Cell):
    def construct(self, q):
        scores = ops.matmul(q, q.transpose(-1, -2))
        heads = scores.transpose(1, 2)
        return heads, heads[0, 0].transpose(0, 1)


class Square(nn.Cell):
    """2-D only: GRAPH_MODE compiles `transpose(0, 1)` as the identity permutation."""

    def construct(self, x):
        return x[0, 0].transpose(0, 1) - x[0, 0]
