import mindspore as ms
from mindspore import Tensor, nn, ops


class Stats(nn.Cell):
    def construct(self, x):
        stats = Tensor([x.mean(), x.max()], ms.float32)
        pair = ms.tensor((ops.reduce_sum(x), x.min()), dtype=ms.float32)
        mixed = Tensor([x.mean(), 1.0], ms.float32)
        return stats, pair, mixed
