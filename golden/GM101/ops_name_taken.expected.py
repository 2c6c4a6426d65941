# `ops` already means something else here: the fix spells `mindspore.ops` through `import mindspore`.
import mindspore
import numpy as np
from mindspore import Tensor, nn

from .registry import ops


class Head(nn.Cell):
    def construct(self, x):
        return ops.apply(x) * mindspore.ops.ones((x.shape[0], 1), x.dtype)
