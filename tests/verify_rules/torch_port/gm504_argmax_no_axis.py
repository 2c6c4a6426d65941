"""GM504: no-argument `argmax()` (PyNative: flattened index; GRAPH_MODE: last-axis indices)."""

import mindspore as ms
from mindspore import nn


class Decoder(nn.Cell):
    def construct(self, x):
        best = x.argmax()
        ints = (x * 3).astype(ms.int32).argmax()
        return best, ints, x.reshape(-1)[best]
