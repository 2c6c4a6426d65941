"""mindnlp's functional weight_norm, as wav2vec2 and HuBERT import it: the import goes, a graph-native
`weight_norm` with the same signature comes after the imports, and the calls stay as they are."""

import types

import mindspore
from mindspore import nn, ops
from mindspore import Parameter
from mindnlp.modules.functional import finfo


def _weight_norm_construct(self, *args, **kwargs):
    """`weight_norm`'s `construct`: the weight set to g * v / ||v||, then the Cell's own `construct`."""
    v = getattr(self, self.wn_name + "_v")
    g = getattr(self, self.wn_name + "_g")
    ops.assign(getattr(self, self.wn_name), v * (g / (v * v).sum(axis=self.wn_axes, keepdims=True).sqrt()))
    return self.wn_construct(*args, **kwargs)


def weight_norm(cell, name="weight", dim=-1, axis=None):
    """mindnlp's `weight_norm` as graph mode compiles it, written by graphmend (GM205) in place of
    `mindnlp.modules.functional.weight_norm`'s: the same `<name>_g` and `<name>_v` Parameters,
    and a `construct` that computes the weight with ops."""
    if axis is not None:
        dim = axis
    weight = getattr(cell, name)
    axes = tuple(range(weight.ndim))
    if dim != -1:
        axes = tuple(i for i in axes if i != dim % weight.ndim)
    setattr(cell, name + "_g", Parameter((weight * weight).sum(axis=axes, keepdims=dim != -1).sqrt()))
    setattr(cell, name + "_v", Parameter(weight.value().copy()))
    cell.wn_name, cell.wn_dim, cell.wn_axes = name, dim, axes
    cell.wn_construct = cell.construct
    cell.construct = types.MethodType(_weight_norm_construct, cell)
    return cell


__all__ = ["PositionalConvEmbedding"]


class PositionalConvEmbedding(nn.Cell):
    def __init__(self, hidden_size, kernel_size, groups):
        super().__init__()
        self.conv = nn.Conv1d(hidden_size, hidden_size, kernel_size=kernel_size, pad_mode="pad",
                              padding=kernel_size // 2, group=groups, has_bias=True)
        self.conv = weight_norm(self.conv, name="weight", axis=2)
        self.min = finfo(mindspore.float32).min

    def construct(self, hidden_states):
        hidden_states = self.conv(hidden_states.swapaxes(1, 2))
        return ops.gelu(hidden_states).swapaxes(1, 2)
