"""GM106: asnumpy copies fed to numpy functions and wrapped back into tensors."""

import mindspore as ms
import numpy as np
from mindspore import Tensor, nn, ops


class HostReduce(nn.Cell):
    def construct(self, x):
        x = ops.relu(x) + 1
        peak = Tensor(np.max(x.asnumpy(), axis=2))
        joined = Tensor(np.concatenate([x.asnumpy(), x.asnumpy()], axis=1), ms.float32)
        bounded = ms.Tensor.from_numpy(np.clip(x.asnumpy(), 1.5, 2))
        spread = Tensor(np.sqrt(x.asnumpy()), ms.float32)
        return peak, joined, bounded, spread
