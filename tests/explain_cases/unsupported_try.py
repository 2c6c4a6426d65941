"""No rule explains this one: `try` in construct, which MindSpore 2.10's graph compiler refuses."""

from mindspore import nn, ops


class Guarded(nn.Cell):
    def construct(self, x):
        try:
            y = ops.relu(x)
        except ValueError:
            y = x
        return y
