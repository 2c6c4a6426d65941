"""Sizes as a Python list or unpacked with `*`: mindnlp's LongT5 tiles its side keys with `reps = [1] * (ndim + 1)`,
LLaVA-NeXT broadcasts its image newline to `(*image_feature.shape[:-1], 1)`. `ops.tile` and `ops.broadcast_to`
take a tuple, never a list: graphmend's fix writes `tuple(reps)` and the starred tuple."""

import numpy as np
from mindspore import Parameter, Tensor, nn


class SideTiles(nn.Cell):
    def construct(self, x, y):
        reps = [1] * (x.ndim + 1)
        reps[1] = y.shape[1]
        return x.unsqueeze(1).repeat(reps)


class Newline(nn.Cell):
    def __init__(self):
        super().__init__()
        self.newline = Parameter(Tensor(np.arange(4, dtype=np.float32)))

    def construct(self, x):
        shape = [x.shape[1], 5, 1]
        return self.newline[:, None, None].expand(*x.shape[1:2], 5, 1), self.newline[:, None, None].expand(shape)
