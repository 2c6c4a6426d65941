"""mint.einsum in graph code, as mindone's ports write it: rewritten as GM511 rewrites ops.einsum."""
from mindspore import mint, nn
from mindspore.mint import einsum


class Attention(nn.Cell):
    def construct(self, q, k, v, w):
        scores = mint.einsum("bhqd,bhkd->bhqk", q, k)
        out = einsum("bhqk,bhkd->bhqd", scores, v)
        proj = mint.einsum("...d,de->...e", out, w)
        both = mint.einsum("bhqd,bhkd->bhqk", (q, k))  # the operands in one tuple
        traced = mint.einsum("ii->i", w)  # a diagonal: reported
        return scores, out, proj, both, traced
