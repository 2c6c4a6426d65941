from mindspore import nn, ops


class Attn(nn.Cell):
    """The local the fix would use is taken: it picks the next free name."""

    def __init__(self):
        super().__init__()
        self.probs = None

    def construct(self, x):
        probs = x * 2
        probs_2 = ops.softmax(probs, -1)
        return probs_2 + probs
