import mindspore as ms
import mindspore.numpy as mnp
import numpy as np
from mindspore import Tensor, nn, ops


def host_stats(batch):
    # not graph code: numpy on host arrays is left alone
    return Tensor(np.mean(batch, axis=0))


class Pooled(nn.Cell):
    def __init__(self, dims=(2, 3)):
        super().__init__()
        self.dims = dims

    def construct(self, x, y):
        x = ops.relu(x)
        y = ops.relu(y)
        peak = Tensor(np.max(x, axis=2, keepdims=True))  # the peak per row
        joined = ms.Tensor.from_numpy(np.concatenate((x, y), axis=1))
        gate = Tensor(np.where(x > y, x, y), dtype=ms.float16)
        root = Tensor(np.sqrt(x), np.float32)
        clipped = ms.tensor(np.clip(x, 0, 6))
        layout = Tensor(np.transpose(x, (0, 2, 1)))
        flipped = Tensor(np.flip(x, 1))  # not in the table: ops.flip rejects an int axis
        full = Tensor(np.transpose(x))  # ops.transpose needs the axes
        scale = np.sqrt(np.prod(self.dims))  # numpy on Python ints folds at compile time
        native = Tensor(mnp.sqrt(x))  # mindspore.numpy is graph-native
        return peak, joined, gate, root, clipped, layout, flipped, full, scale, native
