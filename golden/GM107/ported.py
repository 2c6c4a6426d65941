import mindspore as ms
import numpy as np
from mindspore import Tensor, mint, nn, ops


class Ported(nn.Cell):
    """A numpy dtype where a MindSpore op takes a MindSpore dtype."""

    def construct(self, x):
        half = ops.cast(x, np.float16)
        mask = ops.ones(x.shape, dtype=np.bool_)
        eye = ops.eye(4, 4, np.float32)
        ids = mint.zeros((2, 3), dtype=np.int64)
        scale = Tensor([1.0, 2.0], np.float32)
        return half, mask, eye, ids, scale
