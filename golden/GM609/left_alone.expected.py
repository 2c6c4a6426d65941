import numpy as np
from mindspore import nn

NAMES = ("a", "b")


class Lookup(nn.Cell):
    def __init__(self, table):
        super().__init__()
        self.table = table
        self.keys = {"a": 1}
        self.has_two = 2 in np.arange(4)  # __init__ runs in Python

    def construct(self, x, name: str, k: int):
        if name in NAMES:  # a tuple of strings
            x = x * 2
        if "a" in self.keys:  # a dict
            x = x + 1
        if k in (1, 2):  # a number in a tuple
            x = x - 1
        if name in "abc":  # a string
            x = x * 3
        s = x.sum()
        if s in (s * 2, s):  # a tensor in a tuple: ran everywhere on 2.10
            x = x + 2
        if 1 < 2 in x:  # chained: left as written
            x = x - 2
        if name in x:  # a string in a tensor: PyNative says False, a rewrite would fail
            x = x + 3
        return x


def outside(x):
    return 2 in x  # not graph code
