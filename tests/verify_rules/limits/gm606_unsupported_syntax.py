"""GM606 (report only): `try` in construct."""

from mindspore import nn


class Careful(nn.Cell):
    def construct(self, x):
        try:
            y = x * 2
        except ValueError:
            y = x
        return y
