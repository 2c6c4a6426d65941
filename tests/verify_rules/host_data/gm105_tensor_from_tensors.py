"""GM105: a tensor built from a list of tensors."""

import mindspore as ms
from mindspore import Tensor, nn


class Stats(nn.Cell):
    def construct(self, x):
        stats = Tensor([x.mean(), x.max(), x.min()], ms.float32)
        return x * stats[0] + stats[2], stats
