import mindspore as ms
from mindspore import nn, ops


class Attention(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scale = 0.125

    def construct(self, q, k, v):
        scores = ops.matmul(q, ops.swapaxes(k, -1, -2)) * self.scale  # torch's swap
        out = ops.swapaxes(ops.matmul(scores, v), 1, 2)
        mat = ops.swapaxes(out[0, 0], 0, 1)
        named = ops.swapaxes(q + k, 2, 3)
        return out, mat, named
