# `-1` that is not a flatten of the receiver: reported (off by default) with no fix; no `-1`: untouched.
import mindspore as ms
import numpy as onp
from mindspore import nn, ops


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.pool = nn.AdaptiveAvgPool2d(1)

    def construct(self, x, y):
        B, C, H, W = x.shape
        a = x.permute(0, 2, 3, 1).view(-1, 3)  # batch folded into rows
        b = self.pool(y).view(B, -1)  # B is x's batch, not y's
        n = len(x)
        c = y.view(n, -1)
        x = x * 2
        d = x.view(B, -1)  # x was rebound after B was read
        e = x.view(B, C, H, W, -1)  # appends a dimension of 1: not a flatten
        f = x.view(ms.float16)
        g = x.reshape(B, C * H * W)
        h = self.reshape(x, -1)
        return a, b, c, d, e, f, g, h

    def reshape(self, x, shape):
        return x


class NotACell:
    def construct(self, x):
        return x.view(x.shape[0], -1)


class HostNumpy(nn.Cell):
    def construct(self, x):
        return x * ms.Tensor(onp.arange(6).reshape(-1))  # host numpy: GM103's business
