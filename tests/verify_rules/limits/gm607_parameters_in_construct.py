"""GM607 (report only): `self.trainable_params()` in construct."""

from mindspore import nn


class Regularised(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)

    def construct(self, x):
        y = self.dense(x)
        for p in self.trainable_params():
            y = y + p.sum()
        return y
