import mindspore as ms
import numpy as np
from mindspore import Tensor, nn


class Noise(nn.Cell):
    """A layout method inside `Tensor(...)` is part of the draw's expression; other numpy work is not."""

    def construct(self, x):
        flat = Tensor(np.random.rand(4, 4).reshape(-1), ms.float32)
        summed = Tensor(np.random.rand(4, 4).sum(0), ms.float32)
        return x, flat, summed
