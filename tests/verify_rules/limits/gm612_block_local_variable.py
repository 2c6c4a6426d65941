"""GM612: names bound only in a branch or a loop body (or in two complementary `if`s), read after it."""

from mindspore import nn


class Blocks(nn.Cell):
    def __init__(self):
        super().__init__()
        self.blocks = nn.CellList([nn.Dense(4, 4), nn.Dense(4, 4)])

    def construct(self, x):
        if x.ndim == 2:
            y = x * 2
        n = 0
        while n < 2:
            z = x * n
            n = n + 1
        for i in range(2):
            out = self.blocks[i](x)
        if x.shape[0] > 1:
            w = x * 3
        if x.shape[0] <= 1:
            w = x
        return y + out + z * i + w
