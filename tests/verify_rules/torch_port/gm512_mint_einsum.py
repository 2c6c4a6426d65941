"""GM512's hostile Cell: `mint.einsum` as mindone's ports write it (attention scores, a weighted sum, an outer
product). GRAPH and STRICT compile it on CPU with static shapes; a dynamic batch does not, and PyNative on CPU
has no kernel for it."""

from mindspore import mint, nn


class MintEinsums(nn.Cell):
    def construct(self, x):
        q = x * 0.5
        scores = mint.einsum("bnqd,bnkd->bnqk", q, x)
        mixed = mint.einsum("bnqk,bnkd->bnqd", scores.softmax(-1), x)
        outer = mint.einsum("i,j->ij", x[0, 0, 0], x[0, 0, :, 0])
        energy = mint.einsum("bnqd,nqd->bn", x, x[0])  # two contracted indices
        return mixed, outer, energy
