"""GM611 (report only): a setter outside graph code changes what construct compiled in (bench/limits row 10)."""

from mindspore import nn


class Scaled(nn.Cell):
    def __init__(self):
        super().__init__()
        self.k = 2

    def set_k(self, k):
        self.k = k

    def construct(self, x):
        return x * self.k
