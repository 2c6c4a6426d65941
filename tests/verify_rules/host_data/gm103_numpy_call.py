"""GM103 (report only): host numpy applied to a tensor in construct."""

import mindspore as ms
import numpy as np
from mindspore import Tensor, nn, ops


class HostSqrt(nn.Cell):
    def construct(self, x):
        y = Tensor(np.sqrt(ops.abs(x)), ms.float32)
        return y * 2
