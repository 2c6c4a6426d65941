# graphmend: skip-file
import mindspore as ms
import numpy as np
from mindspore import nn


class Net(nn.Cell):
    def construct(self, x):
        return ms.Tensor(np.ones((x.shape[0], 2)), ms.float32)
