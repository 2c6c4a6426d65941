"""GM613: a Python number passed to `mindspore.export` as an input of the Cell."""

import mindspore as ms
from mindspore import nn


class Scaled(nn.Cell):
    def construct(self, x, k):
        return x * k


def export_scaled(x, file_name):
    ms.export(Scaled(), x, 2, file_name=file_name, file_format="MINDIR")
