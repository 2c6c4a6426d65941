import mindspore as ms
import numpy as np
from mindspore import Tensor, nn, ops


class Accumulators(nn.Cell):
    def __init__(self):
        super().__init__()
        self.zero = ms.Tensor(0.0, ms.float32)
        self.levels = 3

    def construct(self, x):
        total = ms.Tensor(0.0, ms.float32)
        for i in range(self.levels):
            total = total + x.sum() * (i + 1)  # a loss summed over levels
        acc = self.zero
        acc = acc - (x.mean() - 1.0)
        ratio = Tensor(np.ones((), np.float32))
        ratio = ratio / (x.max() + 2.0)
        pair = ms.tensor([0.0, 0.0])
        pair = pair * (x.min() if x.shape[0] > 1 else x.max())
        power = Tensor(2.0)
        power = power ** 2
        scaled = Tensor(1.0)
        scaled = scaled * (x.mean() * 3.0)
        return total, acc, ratio, pair, power, scaled
