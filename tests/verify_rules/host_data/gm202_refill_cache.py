"""GM202's refilled cache: the rotary embedding of mindnlp's chatglm port, written again with the ops that have
CPU kernels: the tables are computed for the longest sequence seen (`self.max_seq_len_cached`), kept in
`self.cos_cached`/`self.sin_cached` and sliced to the length; `_apply` casts them when there are some."""

import mindspore
from mindspore import nn, ops


class RotaryEmbedding(nn.Cell):
    def __init__(self, dim=8, base=10000):
        super().__init__()
        self.inv_freq = 1.0 / (base ** (ops.arange(0, dim, 2, dtype=mindspore.int64).float() / dim))
        self.max_seq_len_cached = None
        self.cos_cached = None
        self.sin_cached = None

    def construct(self, x, seq_dim=1, seq_len=None):
        if seq_len is None:
            seq_len = x.shape[seq_dim]
        if self.max_seq_len_cached is None or (seq_len > self.max_seq_len_cached):
            self.max_seq_len_cached = seq_len
            t = ops.arange(seq_len).type_as(self.inv_freq)
            freqs = t[:, None] * self.inv_freq[None, :]
            emb = ops.cat((freqs, freqs), axis=-1)
            cos_cached = emb.cos()[:, None, :]
            sin_cached = emb.sin()[:, None, :]
            self.cos_cached, self.sin_cached = cos_cached, sin_cached
        return self.cos_cached[:seq_len, ...], self.sin_cached[:seq_len, ...]

    def _apply(self, fn):
        if self.cos_cached is not None:
            self.cos_cached = fn(self.cos_cached)
        if self.sin_cached is not None:
            self.sin_cached = fn(self.sin_cached)
        return super()._apply(fn)
