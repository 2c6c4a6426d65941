# mindspore.numpy, draws outside graph code, and ops random ops are not this rule's business.
import mindspore.numpy as mnp
import numpy as np
from mindspore import Parameter, Tensor, nn, ops
from mindspore import numpy as np_native


class Net(nn.Cell):
    def __init__(self, channels=4):
        super().__init__()
        self.implicit = Parameter(Tensor(np.random.normal(0.0, 0.02, (1, channels, 1, 1)).astype(np.float32)))

    def construct(self, x):
        native = np_native.rand((2, 3))
        also_native = mnp.randn(2, 3)
        drawn = ops.rand(2, 3)
        return x * self.implicit, native, also_native, drawn


def make_inputs():
    return Tensor(np.random.randn(1, 3, 640, 640).astype(np.float32))
