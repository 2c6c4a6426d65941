"""GM509: functional dropout without `training=` (drops at random even in eval mode)."""

from mindspore import nn, ops


class Attention(nn.Cell):
    def __init__(self):
        super().__init__()
        self.attention_dropout = 0.5

    def construct(self, x):
        weights = ops.dropout(ops.softmax(x, axis=-1), p=self.attention_dropout)
        maps = ops.dropout2d(x, 0.5)
        return weights, maps
