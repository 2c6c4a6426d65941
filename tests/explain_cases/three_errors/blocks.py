"""A stack of Dense layers kept in a Python list (GM203: GRAPH_MODE cannot name their Parameters)."""

from mindspore import nn


class Stack(nn.Cell):
    def __init__(self, width=8, depth=2):
        super().__init__()
        self.layers = [nn.Dense(width, width) for _ in range(depth)]

    def construct(self, x):
        for layer in self.layers:
            x = layer(x)
        return x
