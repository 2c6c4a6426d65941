# The flatten forms with a known rank, and `-1` alone: safe rewrites to ops.flatten.
import mindspore as ms
from mindspore import nn, ops as P2
from mindspore.ops import operations as P


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.reshape = P.Reshape()

    def construct(self, x, mask):
        B, C, H, W = x.shape
        flat = x.view(-1)  # all of it
        rows = x.reshape((B, -1))
        planes = x.view(B, C, -1)
        attn = self.reshape(x, (B, C, -1))
        tokens = P2.reshape(x, (x.shape[0], x.shape[1], -1))
        return flat, rows, planes, attn, tokens, mask.reshape(-1), (x * 2).view(-1)
