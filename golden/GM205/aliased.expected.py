"""Imported under another name, with other names on the same line, in a file that spells `ops` and
`Parameter` its own way: the helper takes the name the file calls, and the file's spellings."""
import types

import mindspore as ms
from mindspore import nn

from mindnlp.modules.functional.weight_norm import remove_weight_norm


def _wn_construct(self, *args, **kwargs):
    """`wn`'s `construct`: the weight set to g * v / ||v||, then the Cell's own `construct`."""
    v = getattr(self, self.wn_name + "_v")
    g = getattr(self, self.wn_name + "_g")
    ms.ops.assign(getattr(self, self.wn_name), v * (g / (v * v).sum(axis=self.wn_axes, keepdims=True).sqrt()))
    return self.wn_construct(*args, **kwargs)


def wn(cell, name="weight", dim=-1, axis=None):
    """mindnlp's `weight_norm` as graph mode compiles it, written by graphmend (GM205) in place of
    `mindnlp.modules.functional.weight_norm`'s: the same `<name>_g` and `<name>_v` Parameters,
    and a `construct` that computes the weight with ops."""
    if axis is not None:
        dim = axis
    weight = getattr(cell, name)
    axes = tuple(range(weight.ndim))
    if dim != -1:
        axes = tuple(i for i in axes if i != dim % weight.ndim)
    setattr(cell, name + "_g", ms.Parameter((weight * weight).sum(axis=axes, keepdims=dim != -1).sqrt()))
    setattr(cell, name + "_v", ms.Parameter(weight.value().copy()))
    cell.wn_name, cell.wn_dim, cell.wn_axes = name, dim, axes
    cell.wn_construct = cell.construct
    cell.construct = types.MethodType(_wn_construct, cell)
    return cell


class Head(nn.Cell):
    def __init__(self, n):
        super().__init__()
        self.proj = wn(nn.Dense(n, n))  # the whole weight's norm: dim=-1

    def construct(self, x):
        return self.proj(x)

    def fuse(self):
        remove_weight_norm(self.proj)
