"""ops.einsum forms without a mechanical rewrite: reported with what to write instead."""

from mindspore import nn, ops


class Forms(nn.Cell):
    def __init__(self, equation):
        super().__init__()
        self.equation = equation

    def construct(self, a, b, c):
        batched = ops.einsum("...hqk,khd->...qhd", a, b)  # an ellipsis in one operand only
        trace = ops.einsum("ii->", a)
        three = ops.einsum("ab,bc,cd->ad", a, b, c)
        given = ops.einsum(self.equation, a, b)
        return batched, trace, three, given
