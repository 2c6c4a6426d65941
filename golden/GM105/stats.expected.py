import mindspore as ms
from mindspore import Tensor, nn, ops


class Stats(nn.Cell):
    def construct(self, x):
        stats = ops.stack([x.mean(), x.max()]).astype(ms.float32)
        pair = ops.stack((ops.reduce_sum(x), x.min())).astype(ms.float32)
        mixed = Tensor([x.mean(), 1.0], ms.float32)
        return stats, pair, mixed
