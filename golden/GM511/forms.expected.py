"""ops.einsum in graph code: the forms real ports write (mindnlp, HuggingFace ports)."""

import mindspore
from mindspore import nn, ops
from mindspore.ops import einsum


class RelativeAttention(nn.Cell):
    def __init__(self, dim):
        super().__init__()
        self.inv_freq = ops.arange(0, dim, 2)

    def construct(self, q, k, positions, x):
        scores = ops.matmul(q, ops.transpose(k, (0, 1, 3, 2)))  # attention scores
        relative = ops.transpose(ops.matmul(ops.transpose(q, (0, 2, 1, 3)), ops.transpose(positions, (0, 2, 1))), (0, 2, 1, 3))
        freqs = ops.arange(q.shape[2])[:, None] * self.inv_freq
        mixed = ops.transpose(ops.matmul(x[:, None], ops.transpose(positions, (1, 0, 2))), (0, 2, 1, 3))
        heads = ops.transpose(scores, (2, 3, 0, 1))
        total = freqs.sum(axis=(0, 1))
        ratio = scores / (q[..., 0][:, :, :, None] * k[..., 0][:, :, None])
        norm = (scores * scores).sum(axis=-1)
        return scores, relative, freqs, mixed, heads, total, ratio, norm


class Bros(nn.Cell):
    def construct(self, query_layer, bbox_pos_emb):
        # torch's and mindnlp's form: the operands in one tuple
        return ops.transpose(ops.matmul(ops.transpose(query_layer, (0, 2, 1, 3)), ops.transpose(bbox_pos_emb, (0, 1, 3, 2))), (0, 2, 1, 3))
