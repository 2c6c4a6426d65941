"""No `ops` imported yet: the fix adds `from mindspore import ops`; everything else stays byte-identical."""
import numpy as np   # the host one
from mindspore import Tensor, nn, ops
import mindspore.common.dtype as mstype


class Head(nn.Cell):
    def construct(self, x):  # keep me
        x = self.helper_without_comment(x)
        # a comment before
        mask = Tensor(
            np.ones((x.shape[0], 8)),   # one row per sample
            mstype.float32,
        )
        return   x * mask   # odd spacing survives

    def helper_without_comment(self, x):
        return x * ops.zeros((x.shape[0], 8), mstype.float32)
