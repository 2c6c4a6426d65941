"""A cache refilled when the key grows (mindnlp's chatglm rotary embedding): with unsafe fixes, the `if`'s body
runs on every call and the kept tables become locals; `_apply`, which only maps the tables when there are
some, does not stop it. Then forms that stay reported: the key read by another method, a mapper that reads the
table unguarded, an `if` that does not set its key."""
from mindspore import nn, ops


class Rotary(nn.Cell):
    def __init__(self, inv_freq):
        super().__init__()
        self.inv_freq = inv_freq
        self.max_len = None
        self.cos_table = None
        self.sin_table = None

    def construct(self, x, seq_len=None):
        if seq_len is None:
            seq_len = x.shape[1]
        # refill the tables when a longer sequence comes
        freqs = ops.arange(seq_len)[:, None] * self.inv_freq[None, :]
        emb = ops.cat((freqs, freqs), axis=-1)
        cos_table, sin_table = emb.cos(), emb.sin()
        return cos_table[:seq_len], sin_table[:seq_len]

    def _apply(self, fn):
        if self.cos_table is not None:
            self.cos_table = fn(self.cos_table)
        if self.sin_table is not None:
            self.sin_table = fn(self.sin_table)
        return super()._apply(fn)


class KeyReadElsewhere(nn.Cell):
    def __init__(self):
        super().__init__()
        self.longest = None
        self.positions = None

    def construct(self, x):
        if x.shape[1] > self.longest:
            self.longest = x.shape[1]
            self.positions = ops.arange(x.shape[1])
        return self.positions[: x.shape[1]]

    def longest(self):
        return self.longest


class MapperReadsUnguarded(nn.Cell):
    def __init__(self):
        super().__init__()
        self.kept_len = None
        self.kept = None

    def construct(self, x):
        if self.kept_len is None or x.shape[1] > self.kept_len:
            self.kept_len = x.shape[1]
            self.kept = ops.arange(x.shape[1])
        return self.kept[: x.shape[1]]

    def _apply(self, fn):
        self.kept = fn(self.kept)
        return super()._apply(fn)


class KeyNotSet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.size = None
        self.values = None

    def construct(self, x):
        if self.size is None or x.shape[1] > self.size:
            self.values = ops.arange(x.shape[1])
        return self.values[: x.shape[1]]
