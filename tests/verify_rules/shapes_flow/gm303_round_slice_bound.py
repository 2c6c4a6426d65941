"""GM303: `round(...)` as a slice bound (a channel split by a rate)."""

from mindspore import nn


class KeepRate(nn.Cell):
    def __init__(self, rate=0.5):
        super().__init__()
        self.rate = rate

    def construct(self, x):
        c = x.shape[1]
        return x[:, : round(self.rate * c)] * 2, x[:, round(self.rate * c) :]
