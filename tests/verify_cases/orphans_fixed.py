"""orphans.py's Crashes without the crash: it still detaches two processes at every build."""

from mindspore import nn
from orphans_spawn import detach


class Crashes(nn.Cell):
    def __init__(self):
        super().__init__()
        detach()

    def construct(self, x):
        return x * 2
