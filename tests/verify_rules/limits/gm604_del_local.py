"""GM604: `del` of local names."""

from mindspore import nn, ops


class Proj(nn.Cell):
    def __init__(self):
        super().__init__()
        self.proj = nn.Dense(4, 4)

    def construct(self, x):
        t = self.proj(x)
        y = ops.relu(t)
        del t
        a, b = y, y * 2
        del a, b
        return y
