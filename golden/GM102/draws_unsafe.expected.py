import mindspore as ms
import numpy as np
from mindspore import Tensor, nn


class Noise(nn.Cell):
    def __init__(self, std=0.1):
        super().__init__()
        self.std = std

    def construct(self, x):
        shape = x.shape
        noise = ms.ops.rand(*shape, dtype=ms.float32)  # the seed article's form
        gauss = ms.ops.randn(x.shape[0], 4, dtype=ms.float16)
        host64 = ms.ops.rand(2, 3, dtype=ms.float64)
        sample = ms.ops.rand((2, 3), dtype=ms.float32)
        std = ms.ops.randn(shape, dtype=ms.float32)
        uni = ms.ops.rand((2, 3), dtype=ms.float32) * (1.0 - -1.0) + -1.0
        uni01 = ms.ops.rand(shape, dtype=ms.float32)
        nor = ms.ops.randn(shape, dtype=ms.float32) * self.std
        nor2 = ms.ops.randn(shape, dtype=ms.float32) * 2.0 + (1.0 + self.std)
        ints = ms.ops.randint(0, 10, (2, 3), dtype=ms.int32)
        ints_one = ms.ops.randint(0, 5, (x.shape[0],), dtype=ms.int64)
        ints_float = ms.ops.randint(0, 10, (4,)).astype(ms.float32)
        keep = ms.ops.rand(x.shape[0], 8, dtype=ms.float32)
        return noise, gauss, host64, sample, std, uni, uni01, nor, nor2, ints, ints_one, ints_float, keep
