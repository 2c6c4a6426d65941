# Seed: mindocr vary_clip_model attention, written with torch's transpose
from mindspore import nn, ops


class CLIPAttention(nn.Cell):
    def __init__(self, embed_dim, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.k_proj = nn.Dense(embed_dim, embed_dim)
        self.q_proj = nn.Dense(embed_dim, embed_dim)

    def _shape(self, tensor, seq_len, bsz):
        return tensor.view(bsz, seq_len, self.num_heads, self.head_dim).transpose(1, 2)

    def construct(self, hidden_states):
        bsz, tgt_len, _ = hidden_states.shape
        query_states = self._shape(self.q_proj(hidden_states), tgt_len, bsz)
        key_states = self._shape(self.k_proj(hidden_states), tgt_len, bsz)
        attn_weights = ops.matmul(query_states, key_states.transpose(2, 3))
        return attn_weights
