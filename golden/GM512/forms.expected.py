"""mint.einsum in graph code, as mindone's ports write it: rewritten as GM511 rewrites ops.einsum."""
from mindspore import mint, nn, ops
from mindspore.mint import einsum


class Attention(nn.Cell):
    def construct(self, q, k, v, w):
        scores = ops.matmul(q, ops.swapaxes(k, 2, 3))
        out = ops.matmul(scores, v)
        proj = mint.einsum("...d,de->...e", out, w)
        both = ops.matmul(q, ops.swapaxes(k, 2, 3))  # the operands in one tuple
        traced = mint.einsum("ii->i", w)  # a diagonal: reported
        return scores, out, proj, both, traced
