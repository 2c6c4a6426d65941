import mindspore as ms
import numpy as np
from mindspore import Tensor, nn, ops


class Normalize(nn.Cell):
    def construct(self, x):
        x = ops.relu(x)
        mean = ops.mean(x, axis=-1, keep_dims=True)  # fails in PyNative too: safe
        spread = Tensor(np.std([x, x], axis=-1, keepdims=True), ms.float32)  # a list: numpy runs it
        logs = ops.log1p(x)
        order = ops.argmin(x, axis=1)  # int64 in numpy, int32 in ops
        ranks = ops.argmin(x, axis=1).astype(ms.int32)  # the wrapper names the dtype: safe
        return (x - mean) / spread, logs, order, ranks
