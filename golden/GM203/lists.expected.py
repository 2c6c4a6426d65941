import mindspore.nn as nn
from mindspore import mint


class Block(nn.Cell):
    def __init__(self, dim):
        super().__init__()
        self.fc = nn.Dense(dim, dim)

    def construct(self, x):
        return self.fc(x)


class Stack(nn.Cell):
    def __init__(self, dim=4, depth=3):
        super().__init__()
        self.layers = nn.CellList([nn.Dense(dim, dim) for _ in range(depth)])
        self.blocks = nn.CellList([
            Block(dim),  # the first block
            Block(dim),
        ])
        self.norms = nn.CellList([mint.nn.LayerNorm((dim,)), nn.ReLU()])
        self.depth = depth

    def construct(self, x):
        for layer in self.layers:
            x = layer(x)
        for block in self.blocks:
            x = block(x)
        return self.norms[1](self.norms[0](x))
