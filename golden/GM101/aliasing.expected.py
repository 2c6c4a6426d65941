# What `np` means is resolved from the imports, never from the spelling.
import mindspore
import mindspore.numpy as mnp
import numpy as onp
from mindspore import Tensor, nn, ops
from mindspore import numpy as np


class Net(nn.Cell):
    def construct(self, x):
        host = ops.zeros((x.shape[0], 4), mindspore.float64)  # host numpy under another name: rewritten
        native = np.zeros((x.shape[0], 4))  # mindspore.numpy: graph-native, left alone
        also_native = mnp.arange(x.shape[0])
        return host + native + also_native.reshape(-1, 1) + ops.ones_like(x)
