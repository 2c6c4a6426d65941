# Constants, tensors and shapes outside graph code are not this rule's business.
import mindspore as ms
from mindspore import Tensor, nn, ops


class Constants(nn.Cell):
    def __init__(self, dim=8):
        super().__init__()
        self.scale = Tensor(dim ** -0.5, ms.float32)
        self.dim = dim

    def construct(self, x):
        two = Tensor(2.0, ms.float32)
        listed = Tensor([1, 2, 3], ms.int32)
        configured = Tensor(self.dim, ms.float32)
        already = ops.scalar_to_tensor(x.shape[0], ms.float32)
        shaped = Tensor(x.shape[0], ms.float32, const_arg=True)
        return x * self.scale * two, listed, configured, already, shaped


def batch_of(x):
    return Tensor(x.shape[0], ms.float32)


class Counted(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layers = [1, 2, 3]

    def construct(self, x):
        return x * Tensor(len(self.layers), ms.float32)
