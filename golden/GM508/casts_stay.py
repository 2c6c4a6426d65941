"""`.to` casts run in every mode: left alone."""

import mindspore as ms
from mindspore import nn


class Net(nn.Cell):
    def __init__(self, dtype):
        super().__init__()
        self.fa_dtype = dtype
        self.visual = nn.Dense(2, 2)

    def construct(self, x, target_dtype, other):
        a = x.to(ms.float16)
        b = x.to(dtype=ms.float32)
        c = x.to(target_dtype)
        d = x.to(self.fa_dtype)
        e = x.to(other)  # casts to other's dtype
        f = x.to(self.visual.weight.dtype)
        g = x.to(self.visual.get_dtype())
        h = x.float()
        return a, b, c, d, e, f, g, h


def host(model, device):
    return model.to(device)
