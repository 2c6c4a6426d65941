"""GM607: the Cell walkers in construct (bench/limits row 3); the unsafe fix computes them in __init__."""

from mindspore import nn


class Regularised(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)

    def construct(self, x):
        y = self.dense(x).astype(next(self.get_parameters()).dtype) * len(self.trainable_params())
        for p in self.trainable_params():
            y = y + p.sum()
        return y
