"""The hook version (encodec's import): default dim 0, `dim=None` for the whole weight."""
import types

import mindspore
from mindspore import nn, ops


def _weight_norm_construct(self, *args, **kwargs):
    """`weight_norm`'s `construct`: the weight set to g * v / ||v||, then the Cell's own `construct`."""
    v = getattr(self, self.wn_name + "_v")
    g = getattr(self, self.wn_name + "_g")
    ops.assign(getattr(self, self.wn_name), v * (g / (v * v).sum(axis=self.wn_axes, keepdims=True).sqrt()))
    return self.wn_construct(*args, **kwargs)


def weight_norm(cell, name="weight", dim=0):
    """mindnlp's `weight_norm` as graph mode compiles it, written by graphmend (GM205) in place of
    `mindnlp.modules.weight_norm`'s: the same `<name>_g` and `<name>_v` Parameters,
    and a `construct` that computes the weight with ops."""
    if dim is None:
        dim = -1
    weight = getattr(cell, name)
    axes = tuple(range(weight.ndim))
    if dim != -1:
        axes = tuple(i for i in axes if i != dim % weight.ndim)
    setattr(cell, name + "_g", mindspore.Parameter((weight * weight).sum(axis=axes, keepdims=dim != -1).sqrt()))
    setattr(cell, name + "_v", mindspore.Parameter(weight.value().copy()))
    cell.wn_name, cell.wn_dim, cell.wn_axes = name, dim, axes
    cell.wn_construct = cell.construct
    cell.construct = types.MethodType(_weight_norm_construct, cell)
    return cell


class EncodecConv1d(nn.Cell):
    def __init__(self, config, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv1d(in_channels, out_channels, kernel_size, pad_mode="valid")
        if config.norm_type == "weight_norm":
            setattr(self, "conv", weight_norm(self.conv))
        self.out = weight_norm(nn.Dense(out_channels, out_channels), dim=None)

    def construct(self, hidden_states):
        return self.out(self.conv(hidden_states).swapaxes(1, 2))
