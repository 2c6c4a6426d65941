# Seed 002: control flow on tensor values → ops.where (the article's ops.Select).
import mindspore as ms
from mindspore import nn, ops


class Branches(nn.Cell):
    def __init__(self):
        super().__init__()
        self.step = ms.Parameter(ms.Tensor(0.0, ms.float32), name="step")

    def construct(self, x):
        y = ops.where(x.mean() > 0, x * 2, x - 1)
        z = x
        z = ops.where(ops.reduce_sum(x) == 0, z * 2, z)
        w = ops.where(x.mean() > 0, x * 2, x - 1)
        r = ops.where(x.min() > 0, ops.sqrt(x), x * 0)
        ops.assign(self.step, ops.where(x.mean() > 0, self.step + 1.0, self.step))
        return self.pick(y + z + w + r)

    def pick(self, x):
        return ops.where(x.max() > 10, x * 2, x - 1)


class Both(nn.Cell):
    def construct(self, x):
        return ops.where(x.sum() < 0, -x, x)
