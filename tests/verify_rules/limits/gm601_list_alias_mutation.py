"""GM601 (report only): a list changed in place through one of two names (silent in graph mode)."""

from mindspore import nn, ops


class Pyramid(nn.Cell):
    def __init__(self):
        super().__init__()
        self.head = nn.Dense(4, 4)

    def construct(self, x):
        outs = [x]
        feats = outs
        feats.append(self.head(x))
        return ops.stack(outs).sum(0) * len(outs)
