import mindspore as ms
from mindspore import nn, ops


class Attention(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scale = 0.125

    def construct(self, q, k, v):
        scores = ops.matmul(q, k.transpose(-1, -2)) * self.scale  # torch's swap
        out = ops.matmul(scores, v).transpose(1, 2)
        mat = out[0, 0].transpose(0, 1)
        named = (q + k).transpose(dim0=2, dim1=3)
        return out, mat, named
