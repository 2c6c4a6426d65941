"""A Cell with every kind of input spec and nested outputs, for `graphmend verify` itself."""

import mindspore as ms
from mindspore import nn, ops


class Mixed(nn.Cell):
    """Token ids, features, and plain Python arguments in; a tuple holding a dict out."""

    def __init__(self, vocab=30000, dim=8):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.norm = nn.BatchNorm1d(dim)

    def construct(self, ids, feats, scale, shift, flag, nothing):
        x = self.embed(ids).mean(axis=1) * scale + shift
        if flag:
            x = x + feats
        if nothing is None:
            x = self.norm(x)
        return x, {"sum": x.sum(), "ids": ids.max(axis=1)}
