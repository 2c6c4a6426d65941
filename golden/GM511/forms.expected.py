"""ops.einsum in graph code: the forms real ports write (mindnlp, HuggingFace ports)."""

import mindspore
from mindspore import nn, ops
from mindspore.ops import einsum


class RelativeAttention(nn.Cell):
    def __init__(self, dim):
        super().__init__()
        self.inv_freq = ops.arange(0, dim, 2)

    def construct(self, q, k, positions, x):
        scores = ops.matmul(q, ops.swapaxes(k, 2, 3))  # attention scores
        relative = ops.swapaxes(ops.matmul(ops.swapaxes(q, 1, 2), ops.swapaxes(positions, 1, 2)), 1, 2)
        freqs = ops.arange(q.shape[2])[:, None] * self.inv_freq
        mixed = ops.swapaxes(ops.matmul(x[:, None], ops.swapaxes(positions, 0, 1)), 1, 2)
        heads = ops.transpose(scores, (2, 3, 0, 1))
        total = freqs.sum(axis=(0, 1))
        ratio = scores / (q[..., 0][:, :, :, None] * k[..., 0][:, :, None])
        norm = (scores * scores).sum(axis=-1)
        return scores, relative, freqs, mixed, heads, total, ratio, norm


class Batched(nn.Cell):
    """A leading `...` in every subscript: any number of batch axes before the written ones."""

    def construct(self, attn, value, x):
        context = ops.swapaxes(ops.matmul(attn, ops.swapaxes(value, -3, -2)), -3, -2)
        scores = ops.matmul(x, ops.swapaxes(x, -2, -1))
        moved = ops.movedim(x, (-2, -1, -3), (-3, -2, -1))
        return context, scores, moved


class Merged(nn.Cell):
    """Two contracted indices (XLNet's attention output), and every index shared."""

    def construct(self, attn_vec, weight):
        out = ops.matmul(ops.flatten(attn_vec, start_dim=-2, end_dim=-1), ops.swapaxes(ops.flatten(weight, start_dim=-2, end_dim=-1), 0, 1))
        energy = (attn_vec * attn_vec).sum(axis=(-3, -2, -1))
        batched = ops.matmul(ops.flatten(attn_vec, start_dim=-2, end_dim=-1)[..., None, :], ops.swapaxes(ops.flatten(weight, start_dim=-2, end_dim=-1), -2, -1)).squeeze(-2)
        return out, energy, batched


class Bros(nn.Cell):
    def construct(self, query_layer, bbox_pos_emb):
        # torch's and mindnlp's form: the operands in one tuple
        return ops.swapaxes(ops.matmul(ops.swapaxes(query_layer, 1, 2), ops.swapaxes(bbox_pos_emb, 2, 3)), 1, 2)


class Precedence(nn.Cell):
    """Operands that are expressions, and rewrites inside larger expressions."""

    def construct(self, a, b, c):
        x = (a + b)[:, None] * c
        y = ops.matmul(a - b, c * 2)
        z = -ops.matmul(a, b) ** 2
        w = (a * b).sum(axis=-1).sum()
        v = (a[:, None] * b)[0]
        return x, y, z, w, v


class PortedClap(nn.Cell):
    """mindone's CLAP: torch.einsum renamed to `ms.einsum`, which MindSpore does not have."""

    def construct(self, query_layer, positional_embedding):
        scores = ops.swapaxes(ops.matmul(ops.swapaxes(query_layer, 1, 2), ops.swapaxes(positional_embedding, 1, 2)), 1, 2)
        return scores


class TorchLeftover(nn.Cell):
    """A PyTorch port's torch.einsum (GM510 leaves it to this rule); `torch` is not even imported."""

    def construct(self, q, k):
        return ops.matmul(q, ops.swapaxes(k, 2, 3))
