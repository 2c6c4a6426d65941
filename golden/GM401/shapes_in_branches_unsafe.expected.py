# Shape dimensions and config numbers in a branch are Python ints: they do not change its shape.
import mindspore as ms
from mindspore import nn, ops


class Net(nn.Cell):
    def __init__(self, scale=2.0):
        super().__init__()
        self.scale = scale
        self.bias = ms.Parameter(ms.Tensor([0.5, 0.5, 0.5], ms.float32), name="bias")

    def construct(self, x):
        B, C, H, W = x.shape
        y = ops.where(x.mean() > 0, x * x.shape[0] + H * W, x * self.scale)
        if x.mean() > 0:
            z = x + self.bias  # a Parameter may broadcast x to another shape: not rewritten
        else:
            z = x
        return y + z
