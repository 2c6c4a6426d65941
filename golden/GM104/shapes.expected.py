import mindspore as ms
from mindspore import Tensor, nn


class Shapes(nn.Cell):
    def construct(self, x, tokens):
        n = ms.ops.scalar_to_tensor(x.shape[0], ms.float32)
        count = ms.tensor(len(tokens))  # no dtype: Tensor(int) is Int64
        half = ms.ops.scalar_to_tensor(x.shape[-1] / 2, ms.float32)  # no dtype: a float, Float32
        area = ms.ops.scalar_to_tensor(x.shape[2] * x.shape[3], ms.int32)
        hw = ms.ops.tuple_to_array((x.shape[2], x.shape[3])).astype(ms.float32)
        one = ms.ops.tuple_to_array((x.shape[0],)).astype(ms.int64)
        mixed = ms.ops.tuple_to_array((x.shape[0], 4)).astype(ms.int32)
        whole = ms.ops.tuple_to_array(x.shape[1:]).astype(ms.int32)
        return x / n, count, half, area, hw, one, mixed, whole
