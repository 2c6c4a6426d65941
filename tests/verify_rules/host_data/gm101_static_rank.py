"""What GM101 leaves alone: a bare numpy constructor of a rank, as mindnlp's hypercomplex batch norm computes its
reduction axes (`sh = np.arange(ndim)` with `ndim = u.ndim`), and a wrapped one of config numbers."""

import mindspore as ms
import numpy as np
from mindspore import Tensor, nn, ops


class MeanAllBut(nn.Cell):
    def __init__(self, axis=1, width=4):
        super().__init__()
        self.axis = axis
        self.width = width

    def construct(self, x):
        ndim = x.ndim
        sh = np.arange(ndim)
        sh = sh[sh != self.axis]
        order = list(np.arange(len(x.shape)))
        order[ndim - 1], order[self.axis] = self.axis, ndim - 1
        y = ops.transpose(x, tuple(int(i) for i in order))
        scale = Tensor(np.ones((self.width,)), ms.float32).sum()
        return ops.mean(x, tuple(sh.tolist()), keep_dims=True) * scale + y.sum()
