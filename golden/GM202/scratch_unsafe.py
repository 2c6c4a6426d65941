import mindspore as ms
from mindspore import Tensor, nn, ops


class Attn(nn.Cell):
    def __init__(self):
        super().__init__()
        self.probs = None
        self.mask = None
        self.calls = 0
        self.pos = None

    def construct(self, x):
        self.probs = ops.softmax(x, -1)  # kept for later
        out = self.probs * 2
        self.debug = x.sum()
        if self.mask is None:
            self.mask = ops.ones((4, 4), ms.float32)
        if self.pos is None:
            self.pos = ops.ones_like(x)
        self.calls = self.calls + 1
        return out + self.mask.sum() + self.pos * self.calls
