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
        probs = ops.softmax(x, -1)  # kept for later
        out = probs * 2
        mask = ops.ones((4, 4), ms.float32)
        pos = ops.ones_like(x)
        self.calls = self.calls + 1
        return out + mask.sum() + pos * self.calls
