"""Cells whose every build starts processes that leave the worker's process group (see orphans_spawn.py)."""

import os

from mindspore import nn
from orphans_spawn import detach


class Escapes(nn.Cell):
    def __init__(self):
        super().__init__()
        detach()

    def construct(self, x):
        return x * 2


class Crashes(nn.Cell):
    """Detaches, then takes its worker down: what it started must not survive the crash either."""

    def __init__(self):
        super().__init__()
        detach()

    def construct(self, x):
        os.abort()
        return x


class Hangs(nn.Cell):
    """Detaches, then never returns: graphmend is killed while it waits."""

    def __init__(self):
        super().__init__()
        detach()

    def construct(self, x):
        while x.shape[0] > 0:
            x = x + 0
        return x
