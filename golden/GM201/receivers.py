# Only attributes of self are known to be Parameters: anything else is an unsafe fix.
import mindspore as ms
from mindspore import nn


class Swap(nn.Cell):
    def __init__(self):
        super().__init__()
        self.a = ms.Parameter(ms.Tensor(1.0), name="a")

    def construct(self, x, p):
        p.set_data(x)
        self.a.set_data(x, slice_shape=True)
        return x
