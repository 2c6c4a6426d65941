# Suppressed findings are neither reported nor fixed; stale suppressions are reported (GM000).
import mindspore as ms
import numpy as np
from mindspore import nn


class Net(nn.Cell):
    def construct(self, x):
        a = ms.Tensor(np.ones((x.shape[0], 2)), ms.float32)  # graphmend: ignore[GM101]
        # graphmend: ignore
        b = ms.Tensor(np.zeros((x.shape[0], 2)), ms.float32)
        c = ms.ops.zeros((x.shape[0], 2), ms.float32)
        d = x * 2
        e = x * 3
        f = x * 4  # graphmend: ignore[GM999]
        return a, b, c, d, e, f
