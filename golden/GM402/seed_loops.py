# Seed 002: loops over a tensor dimension are unrolled at compile time.
import mindspore as ms
from mindspore import nn, ops


class Loops(nn.Cell):
    def construct(self, x):
        B, C, H, W = x.shape
        weighted = ops.stack([x[i] * (i + 1) for i in range(x.shape[0])])
        per_channel = ops.stack([x[:, c] * 2 for c in range(x.shape[1])], axis=1)
        doubled = ops.stack([row * 2 for row in x])
        total = x[0] * 0
        for i in range(len(x)):
            total = total + x[i]
        for i in range(B // 2):
            total = total + x[i]
        for h in range(H):
            total = total + x[:, :, h].sum()
        for i, row in enumerate(x):
            total = total + row
        for plane in ops.unstack(x, axis=2):
            total = total + plane.sum()
        for start in range(0, x.shape[-1], 2):
            total = total + x[..., start].sum()
        i = 0
        while i < x.shape[3]:
            i += 1
        return weighted + per_channel + doubled + total
