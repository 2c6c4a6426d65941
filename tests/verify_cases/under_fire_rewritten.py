"""Rewrites of under_fire.py: one right but loud, one that never returns."""

import os

from mindspore import nn


class Hoard(nn.Cell):
    """Right, but prints 10 MB when built and at every call."""

    def __init__(self):
        super().__init__()
        print("x" * 10_000_000)
        os.write(1, b'{"status": "pass"}\n')  # a reply to the verifier, were fd 1 its channel

    def construct(self, x):
        print("y" * 10_000_000)
        return x * 2


class Abort(nn.Cell):
    def construct(self, x):
        while x.shape[0] > 0:
            x = x + 0
        return x
