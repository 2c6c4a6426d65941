"""A comment inside the replaced expression makes the fix unsafe; with --unsafe-fixes it is dropped."""
import numpy as np   # the host one
from mindspore import Tensor, nn
import mindspore.common.dtype as mstype


class Head(nn.Cell):
    def construct(self, x):  # keep me
        # a comment before
        mask = Tensor(
            np.ones((x.shape[0], 8)),   # one row per sample
            mstype.float32,
        )
        return   x * mask   # odd spacing survives
