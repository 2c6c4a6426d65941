import mindspore as ms
import numpy as np
from mindspore import Tensor, nn


def log_loss(loss):
    # not graph code: left alone
    return Tensor(np.mean(loss.asnumpy()))


class Reduce(nn.Cell):
    def construct(self, x, y):
        peak = ms.ops.amax(x, axis=2)
        mean = ms.Tensor.from_numpy(np.mean(x.asnumpy(), axis=(1, 2), keepdims=True))
        joined = ms.ops.concat([x, y], axis=1).astype(ms.float32)
        bounded = ms.ops.clamp(x, min=0, max=6)
        logs = Tensor(np.log(x.asnumpy()))  # int32 inputs have no ops.log kernel: unsafe
        bare = np.max(x.asnumpy(), axis=2)  # a numpy array: the code around it decides
        mixed = Tensor(np.maximum(x.asnumpy(), np.ones(3)))  # another host array: by hand
        quant = Tensor(np.quantile(x.asnumpy(), 0.5))  # not in the table
        return peak, mean, joined, bounded, logs, bare, mixed, quant
