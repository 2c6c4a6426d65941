import mindspore as ms
from mindspore import nn, ops


class LeftAlone(nn.Cell):
    """Constant counts compile everywhere; `mint` has no CPU kernel to measure; lists are not tensors."""

    def __init__(self, heads=4):
        super().__init__()
        self.heads = heads

    def construct(self, x):
        a = ops.repeat_interleave(x, 2, 0)
        b = x.repeat_interleave(self.heads, dim=1)
        c = ms.mint.repeat_interleave(x, x.shape[0], dim=0)
        return a, b, c
