"""GM501: torch's `x.size(i)` (fails in every mode, PyNative too)."""

import mindspore as ms
from mindspore import nn, ops


class Prenet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.proj = nn.Dense(8, 8)

    def construct(self, x):
        h = self.proj(x)
        flat = h.view(h.size(0), -1)
        ones = ops.ones((h.size(0), h.size(1), 1), ms.float32)
        return flat * h.size(-1), ops.cat([h, ones], axis=-1), ops.zeros(x.size(), ms.float32) + x
