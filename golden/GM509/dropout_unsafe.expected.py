from mindspore import nn, ops


class Attention(nn.Cell):
    def __init__(self, p):
        super().__init__()
        self.attention_dropout = p

    def construct(self, attn_weights, hidden):
        attn_weights = ops.dropout(attn_weights, p=self.attention_dropout, training=self.training)
        hidden = ops.dropout(hidden, 0.1, training=self.training)
        maps = ops.dropout2d(
            hidden,
            p=0.2,
            training=self.training,
        )
        kept = ops.dropout(hidden, p=0.1, training=self.training)
        forced = ops.dropout(hidden, 0.1, True)
        return attn_weights, hidden, maps, kept, forced


def functional_block(x):
    return ops.dropout(x, p=0.5)


class UsesBlock(nn.Cell):
    def construct(self, x):
        return functional_block(x)
