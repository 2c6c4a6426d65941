"""Imported under another name, with other names on the same line, in a file that spells `ops` and
`Parameter` its own way: the helper takes the name the file calls, and the file's spellings."""
import mindspore as ms
from mindspore import nn

from mindnlp.modules.functional.weight_norm import remove_weight_norm, weight_norm as wn


class Head(nn.Cell):
    def __init__(self, n):
        super().__init__()
        self.proj = wn(nn.Dense(n, n))  # the whole weight's norm: dim=-1

    def construct(self, x):
        return self.proj(x)

    def fuse(self):
        remove_weight_norm(self.proj)
