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
        flat = P2.flatten(x, start_dim=0)  # all of it
        rows = P2.flatten(x, start_dim=1)
        planes = P2.flatten(x, start_dim=2)
        attn = P2.flatten(x, start_dim=2)
        tokens = P2.flatten(x, start_dim=2)
        return flat, rows, planes, attn, tokens, P2.flatten(mask, start_dim=0), P2.flatten(x * 2, start_dim=0)
