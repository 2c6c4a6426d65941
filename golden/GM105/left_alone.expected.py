# Lists of numbers, of shapes, or of unknown values are not tensors.
import mindspore as ms
from mindspore import Tensor, nn


class Net(nn.Cell):
    def __init__(self, weights=(1.0, 2.0)):
        super().__init__()
        self.weights = weights

    def construct(self, x, scale=1.0):
        fixed = Tensor([1.0, 2.0], ms.float32)
        configured = Tensor([self.weights[0], scale], ms.float32)
        return x * fixed, configured
