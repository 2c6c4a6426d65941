# Lists of numbers, of shapes, or of unknown values are not tensors.
import mindspore as ms
from mindspore import Tensor, nn, ops


class Net(nn.Cell):
    def __init__(self, weights=(1.0, 2.0)):
        super().__init__()
        self.weights = weights

    def construct(self, x, scale=1.0):
        fixed = Tensor([1.0, 2.0], ms.float32)
        configured = Tensor([self.weights[0], scale], ms.float32)
        return x * fixed, configured


class Kandinsky(nn.Cell):
    """mindone's Kandinsky3UNet: `timestep` may be a Python number, and the code checks."""

    def construct(self, sample, timestep):
        if not ops.is_tensor(timestep):
            dtype = ms.float32 if isinstance(timestep, float) else ms.int32
            timestep = ms.tensor([timestep], dtype=dtype)
        return sample * timestep
