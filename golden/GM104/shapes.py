import mindspore as ms
from mindspore import Tensor, nn


class Shapes(nn.Cell):
    def construct(self, x, tokens):
        n = Tensor(x.shape[0], ms.float32)
        count = ms.tensor(len(tokens))  # no dtype: Tensor(int) is Int64
        half = Tensor(x.shape[-1] / 2)  # no dtype: a float, Float32
        area = Tensor(x.shape[2] * x.shape[3], dtype=ms.int32)
        hw = Tensor([x.shape[2], x.shape[3]], ms.float32)
        one = Tensor([x.shape[0]])
        mixed = Tensor((x.shape[0], 4), ms.int32)
        whole = Tensor(x.shape[1:], ms.int32)
        return x / n, count, half, area, hw, one, mixed, whole
