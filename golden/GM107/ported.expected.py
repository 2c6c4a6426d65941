import mindspore as ms
import numpy as np
from mindspore import Tensor, mint, nn, ops


class Ported(nn.Cell):
    """A numpy dtype where a MindSpore op takes a MindSpore dtype."""

    def construct(self, x):
        half = ops.cast(x, ms.float16)
        mask = ops.ones(x.shape, dtype=ms.bool_)
        eye = ops.eye(4, 4, ms.float32)
        ids = mint.zeros((2, 3), dtype=ms.int64)
        scale = Tensor([1.0, 2.0], ms.float32)
        return half, mask, eye, ids, scale
