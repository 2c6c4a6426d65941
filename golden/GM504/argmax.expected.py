import mindspore as ms
from mindspore import nn, ops


class Decoder(nn.Cell):
    def construct(self, logits, stop_tokens):
        best = ops.argmax(logits)  # one index into the flattened logits
        stop = ops.argmax(stop_tokens * 1) % 3
        per_row = logits.argmax(axis=-1)
        by_dim = logits.argmax(dim=1)
        low = logits.argmin()
        return best, stop, per_row, by_dim, low
