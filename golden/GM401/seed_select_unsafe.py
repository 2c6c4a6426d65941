# Seed 002: control flow on tensor values → ops.where (the article's ops.Select).
import mindspore as ms
from mindspore import nn, ops


class Branches(nn.Cell):
    def __init__(self):
        super().__init__()
        self.step = ms.Parameter(ms.Tensor(0.0, ms.float32), name="step")

    def construct(self, x):
        if x.mean() > 0:
            y = x * 2
        else:
            y = x - 1
        z = x
        if ops.reduce_sum(x) == 0:
            z = z * 2
        w = x * 2 if x.mean() > 0 else x - 1
        if x.min() > 0:
            r = ops.sqrt(x)
        else:
            r = x * 0
        if x.mean() > 0:
            ops.assign_add(self.step, 1.0)
        return self.pick(y + z + w + r)

    def pick(self, x):
        if x.max() > 10:
            return x * 2
        return x - 1


class Both(nn.Cell):
    def construct(self, x):
        if x.sum() < 0:
            return -x
        else:
            return x
