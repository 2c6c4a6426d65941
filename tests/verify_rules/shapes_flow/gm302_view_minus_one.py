"""GM302: flatten forms with `-1` → ops.flatten (the seed 002 form is the unsafe one: rank unknown)."""

import mindspore as ms
from mindspore import nn, ops


class Flattens(nn.Cell):
    def __init__(self):
        super().__init__()
        self.reshape = ops.Reshape()
        self.pool = nn.AvgPool2d(2, 2)

    def construct(self, x):
        B, C, H, W = x.shape
        flat = x.view(-1)
        planes = x.view(B, C, -1)
        rows = self.reshape(x, (B, -1))
        pooled = self.pool(x)
        seed = pooled.view(pooled.shape[0], -1)
        return flat.sum() + planes.sum(axis=2) + rows.mean(axis=1, keep_dims=True) + seed.max()
