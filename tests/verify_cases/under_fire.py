"""Originals that misbehave, with rewrites in under_fire_rewritten.py: the verifier must survive both."""

import os

import numpy as np
from mindspore import nn


class Hoard(nn.Cell):
    """Takes memory until the verifier kills it."""

    def construct(self, x):
        hoard = []
        while True:
            hoard.append(np.ones(1 << 24))  # 128 MB a turn
        return x


class Abort(nn.Cell):
    def construct(self, x):
        os.abort()
        return x
