"""misbehaving.py made well: what the verifier compares the misbehaving Cells with."""

import mindspore as ms
from mindspore import nn, ops


class Spin(nn.Cell):
    def construct(self, x):
        return x


class Abort(nn.Cell):
    def construct(self, x):
        return x


class Segfault(nn.Cell):
    def construct(self, x):
        return x


class HostNoise(nn.Cell):
    def construct(self, x):
        return x + ops.rand(*x.shape, dtype=ms.float32)
