# A suppression with a code that silences nothing loses that code; a stale one goes, comment and all.
import mindspore as ms
import numpy as np
from mindspore import nn


class Net(nn.Cell):
    def construct(self, x):
        a = ms.Tensor(np.ones((x.shape[0], 2)), ms.float32)  # graphmend: ignore[GM301, GM101]
        # graphmend: ignore[GM301]
        b = x * 2
        c = x * 5  # the shape is static here; graphmend: ignore[GM101]
        d = len(x)  # graphmend: ignore[GM101]
        e = x * 3  # graphmend: ignore[GM101, GM999]
        return a, b, c, d, e
