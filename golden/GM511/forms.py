"""ops.einsum in graph code: the forms real ports write (mindnlp, HuggingFace ports)."""

import mindspore
from mindspore import nn, ops
from mindspore.ops import einsum


class RelativeAttention(nn.Cell):
    def __init__(self, dim):
        super().__init__()
        self.inv_freq = ops.arange(0, dim, 2)

    def construct(self, q, k, positions, x):
        scores = ops.einsum("bnqd,bnkd->bnqk", q, k)  # attention scores
        relative = ops.einsum("bhld,lrd->bhlr", q, positions)
        freqs = ops.einsum("i,j->ij", ops.arange(q.shape[2]), self.inv_freq)
        mixed = einsum("ibh,hnd->ibnd", x, positions)
        heads = mindspore.ops.einsum("ijbn->bnij", scores)
        total = ops.einsum("ij->", freqs)
        ratio = scores / ops.einsum("bnq,bnk->bnqk", q[..., 0], k[..., 0])
        norm = ops.einsum(
            "bnqk,bnqk->bnq",
            scores,
            scores,
        )
        return scores, relative, freqs, mixed, heads, total, ratio, norm


class Batched(nn.Cell):
    """A leading `...` in every subscript: any number of batch axes before the written ones."""

    def construct(self, attn, value, x):
        context = ops.einsum("...hqk,...khd->...qhd", attn, value)
        scores = ops.einsum("...qc,...kc->...qk", x, x)
        moved = ops.einsum("...hld->...ldh", x)
        return context, scores, moved


class Merged(nn.Cell):
    """Two contracted indices (XLNet's attention output), and every index shared."""

    def construct(self, attn_vec, weight):
        out = ops.einsum("ibnd,hnd->ibh", attn_vec, weight)
        energy = ops.einsum("ibnd,ibnd->i", attn_vec, attn_vec)
        batched = ops.einsum("...nd,...hnd->...h", attn_vec, weight)
        return out, energy, batched


class Bros(nn.Cell):
    def construct(self, query_layer, bbox_pos_emb):
        # torch's and mindnlp's form: the operands in one tuple
        return ops.einsum("bnid,bijd->bnij", (query_layer, bbox_pos_emb))


class Precedence(nn.Cell):
    """Operands that are expressions, and rewrites inside larger expressions."""

    def construct(self, a, b, c):
        x = ops.einsum("i,j->ij", a + b, c)
        y = ops.einsum("ij,jk->ik", a - b, c * 2)
        z = -ops.einsum("ij,jk->ik", a, b) ** 2
        w = ops.einsum("ij,ij->i", a, b).sum()
        v = ops.einsum("i,j->ij", a, b)[0]
        return x, y, z, w, v


class PortedClap(nn.Cell):
    """mindone's CLAP: torch.einsum renamed to `ms.einsum`, which MindSpore does not have."""

    def construct(self, query_layer, positional_embedding):
        scores = mindspore.einsum("bhld,lrd->bhlr", query_layer, positional_embedding)
        return scores


class TorchLeftover(nn.Cell):
    """A PyTorch port's torch.einsum (GM510 leaves it to this rule); `torch` is not even imported."""

    def construct(self, q, k):
        return torch.einsum("bnqd,bnkd->bnqk", q, k)
