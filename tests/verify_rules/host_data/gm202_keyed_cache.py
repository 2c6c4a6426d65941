"""GM202's keyed cache: the rotary positional embedding of mindone's wav2vec2-conformer port (also its
wav2vec2-bert, seamless_m4t and clvp ones), written again with the ops that have CPU kernels: the value is
kept in `self.cached_rotary_positional_embedding` and returned early while the sequence length matches."""

import mindspore
from mindspore import nn, ops


class RotaryPositionalEmbedding(nn.Cell):
    def __init__(self, dim=8, base=10000):
        super().__init__()
        self.inv_freq = 1.0 / (base ** (ops.arange(0, dim, 2, dtype=mindspore.int64).float() / dim))
        self.cached_sequence_length = None
        self.cached_rotary_positional_embedding = None

    def construct(self, hidden_states):
        sequence_length = hidden_states.shape[1]

        if sequence_length == self.cached_sequence_length and self.cached_rotary_positional_embedding is not None:
            return self.cached_rotary_positional_embedding

        self.cached_sequence_length = sequence_length
        time_stamps = ops.arange(sequence_length).type_as(self.inv_freq)
        freqs = time_stamps[:, None] * self.inv_freq[None, :]
        embeddings = ops.cat((freqs, freqs), axis=-1)
        cos_embeddings = embeddings.cos()[:, None, None, :]
        sin_embeddings = embeddings.sin()[:, None, None, :]
        self.cached_rotary_positional_embedding = ops.stack([cos_embeddings, sin_embeddings]).type_as(hidden_states)
        return self.cached_rotary_positional_embedding
