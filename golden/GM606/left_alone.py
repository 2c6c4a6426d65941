import math

import mindspore as ms
from mindspore import nn


def load(path):
    try:  # not graph code
        import json
        return json.load(open(path))
    except OSError:
        return {}


class Plain(nn.Cell):
    def __init__(self, names):
        super().__init__()
        try:  # __init__ runs in Python
            self.names = {n for n in names}
        except TypeError:
            self.names = set()
        self.k = len(set([1, 2, 2]))  # set(...) of a list compiles; only the display fails

    def construct(self, x):
        d = {"a": 1}  # a dict display, not a set
        return x * self.k * math.pi * d["a"]


@ms.jit(capture_mode="bytecode")
def captured(x):
    try:  # bytecode capture runs what it cannot graph in Python (measured: runs in PyNative)
        return x * 2
    except ValueError:
        return x
