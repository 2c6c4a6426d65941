import mindspore as ms
from mindspore import nn, ops


class KeepRate(nn.Cell):
    """Channel shuffles and token pruning slice with `round(rate * n)`."""

    def __init__(self, rate=0.5):
        super().__init__()
        self.rate = rate

    def construct(self, x):
        c = x.shape[1]
        kept = x[:, :round(self.rate * c)]
        rest = x[:, round(c * self.rate):]  # a comment stays
        strided = x[::round(1.5), 1:round(c / 2):2]
        return kept, rest, strided


class LeftAlone(nn.Cell):
    """Ints already, `round` with digits, of a tensor, or a local `round`, and float bounds are not this rule."""

    def __init__(self, rate=0.5):
        super().__init__()
        self.rate = rate

    def construct(self, x):
        c = x.shape[1]
        a = x[:, : int(round(self.rate * c))]
        b = x[:, : round(self.rate * c, 0)]
        t = ops.reduce_sum(x)
        d = x[:, : round(t)]
        e = x[:, : self.rate * c]
        return a, b, d, e, round(self.rate * c)

