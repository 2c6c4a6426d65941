# The rewrite keeps numpy's dtype: float64 stays float64 unless the wrapper names a dtype.
import mindspore as ms
import numpy as np
from mindspore import Tensor, nn, ops
from mindspore.common import dtype as mstype


class Dtypes(nn.Cell):
    def construct(self, x):
        b = x.shape[0]
        f64 = Tensor(np.ones((b, 3)))
        f32 = Tensor(np.zeros((b, 3)), ms.float32)
        f16 = ms.Tensor(np.full((b, 3), 2.5), dtype=mstype.float16)
        i64 = np.full((b,), 3)
        b8 = np.full((b,), True)
        from_np = Tensor.from_numpy(np.ones((b, 2), np.float32))
        keyword = Tensor(np.ones(shape=(b, 2), dtype=np.int32))
        string = np.zeros((b, 2), dtype="float16")
        astype_np = Tensor(np.zeros((b, 2)).astype(np.float32))
        astype_ms = Tensor(np.zeros((b, 2))).astype(ms.int32)
        same = Tensor(np.empty((b, 2), dtype=np.float32), dtype=x.dtype)
        return f64, f32, f16, i64, b8, from_np, keyword, string, astype_np, astype_ms, same
