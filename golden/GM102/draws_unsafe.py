import mindspore as ms
import numpy as np
from mindspore import Tensor, nn


class Noise(nn.Cell):
    def __init__(self, std=0.1):
        super().__init__()
        self.std = std

    def construct(self, x):
        shape = x.shape
        noise = ms.Tensor(np.random.rand(*shape), ms.float32)  # the seed article's form
        gauss = Tensor(np.random.randn(x.shape[0], 4), dtype=ms.float16)
        host64 = np.random.rand(2, 3)
        sample = Tensor(np.random.random((2, 3)), ms.float32)
        std = Tensor(np.random.standard_normal(size=shape), ms.float32)
        uni = Tensor(np.random.uniform(-1.0, 1.0, (2, 3)), ms.float32)
        uni01 = Tensor(np.random.uniform(size=shape), ms.float32)
        nor = Tensor(np.random.normal(0.0, self.std, shape), ms.float32)
        nor2 = Tensor(np.random.normal(loc=1.0 + self.std, scale=2.0, size=shape), ms.float32)
        ints = Tensor(np.random.randint(0, 10, (2, 3)), ms.int32)
        ints_one = np.random.randint(5, size=x.shape[0])
        ints_float = Tensor(np.random.randint(0, 10, 4), ms.float32)
        keep = ms.Tensor(np.random.rand(x.shape[0], 8)).astype(ms.float32)
        return noise, gauss, host64, sample, std, uni, uni01, nor, nor2, ints, ints_one, ints_float, keep
