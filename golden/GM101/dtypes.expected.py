# The rewrite keeps numpy's dtype: float64 stays float64 unless the wrapper names a dtype.
import mindspore as ms
import numpy as np
from mindspore import Tensor, nn, ops
from mindspore.common import dtype as mstype


class Dtypes(nn.Cell):
    def construct(self, x):
        b = x.shape[0]
        f64 = ops.ones((b, 3), mstype.float64)
        f32 = ops.zeros((b, 3), ms.float32)
        f16 = ops.full((b, 3), 2.5, dtype=mstype.float16)
        i64 = ops.full((b,), 3, dtype=mstype.int64)
        b8 = ops.full((b,), True, dtype=mstype.bool)
        from_np = ops.ones((b, 2), mstype.float32)
        keyword = ops.ones((b, 2), mstype.int32)
        string = ops.zeros((b, 2), mstype.float16)
        astype_np = ops.zeros((b, 2), mstype.float32)
        astype_ms = ops.zeros((b, 2), ms.int32)
        same = ops.zeros((b, 2), x.dtype)
        return f64, f32, f16, i64, b8, from_np, keyword, string, astype_np, astype_ms, same
