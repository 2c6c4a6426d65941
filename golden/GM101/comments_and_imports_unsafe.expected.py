"""A comment inside the replaced expression makes the fix unsafe; with --unsafe-fixes it is dropped."""
import numpy as np   # the host one
from mindspore import Tensor, nn, ops
import mindspore.common.dtype as mstype


class Head(nn.Cell):
    def construct(self, x):  # keep me
        # a comment before
        mask = ops.ones((x.shape[0], 8), mstype.float32)
        return   x * mask   # odd spacing survives
