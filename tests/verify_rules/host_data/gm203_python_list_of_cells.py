"""GM203: a Python list of Cells; their Parameters collide in GRAPH_MODE."""

from mindspore import nn


class Stack(nn.Cell):
    def __init__(self, dim=8, depth=3):
        super().__init__()
        self.layers = [nn.Dense(dim, dim) for _ in range(depth)]

    def construct(self, x):
        for layer in self.layers:
            x = layer(x)
        return x
