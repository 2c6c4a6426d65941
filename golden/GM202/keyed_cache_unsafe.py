"""A cache kept while a key matches (mindone's wav2vec2-conformer rotary embedding): with unsafe fixes, computed
on every call. Then forms that stay reported: the key read by another method, no `is not None` guard, an
early return of something else."""
from mindspore import nn, ops


class Rotary(nn.Cell):
    def __init__(self, inv_freq):
        super().__init__()
        self.inv_freq = inv_freq
        self.cached_sequence_length = None
        self.cached_rotary_positional_embedding = None

    def construct(self, hidden_states):
        sequence_length = hidden_states.shape[1]

        # the cache: kept while the length matches
        if sequence_length == self.cached_sequence_length and self.cached_rotary_positional_embedding is not None:
            return self.cached_rotary_positional_embedding

        self.cached_sequence_length = sequence_length
        freqs = ops.arange(sequence_length)[:, None] * self.inv_freq[None, :]
        self.cached_rotary_positional_embedding = ops.cat((freqs, freqs), axis=-1).astype(hidden_states.dtype)
        return self.cached_rotary_positional_embedding


class KeyReadElsewhere(nn.Cell):
    def __init__(self):
        super().__init__()
        self.cached_length = None
        self.cached_value = None

    def construct(self, x):
        if x.shape[1] == self.cached_length and self.cached_value is not None:
            return self.cached_value
        self.cached_length = x.shape[1]
        self.cached_value = x * 2
        return self.cached_value

    def length(self):
        return self.cached_length


class Unguarded(nn.Cell):
    def __init__(self):
        super().__init__()
        self.cached_length = None
        self.cached_value = None

    def construct(self, x):
        if x.shape[1] == self.cached_length:
            return self.cached_value
        self.cached_length = x.shape[1]
        self.cached_value = x * 2
        return self.cached_value


class OtherReturn(nn.Cell):
    def __init__(self):
        super().__init__()
        self.cached_length = None
        self.cached_value = None

    def construct(self, x):
        if x.shape[1] == self.cached_length and self.cached_value is not None:
            return x
        self.cached_length = x.shape[1]
        self.cached_value = x * 2
        return self.cached_value
