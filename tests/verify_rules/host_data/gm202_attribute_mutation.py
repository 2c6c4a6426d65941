"""GM202 (report only): a plain attribute of the Cell updated in construct."""

from mindspore import nn


class Counter(nn.Cell):
    def __init__(self):
        super().__init__()
        self.calls = 0

    def construct(self, x):
        self.calls = self.calls + 1
        return x * self.calls
