"""A stand-in for mindnlp 0.3.1's `mindnlp.modules.functional.weight_norm`, written here (nothing of mindnlp is
copied) so that GM205's verifier case runs without mindnlp installed. It does what mindnlp's does, as
bench/realcells measures on the real one (HuBERT, wav2vec2): it keeps the norm and the direction of the weight
as the Parameters `<name>_g` and `<name>_v`, and replaces the Cell's `construct` with one that recomputes the
weight in numpy and stores it with `Parameter.set_data` before running the Cell's own.
"""

import types

import numpy as np
from mindspore import Parameter, Tensor


def _norm(weight: np.ndarray, dim: int) -> np.ndarray:
    """The 2-norm over every axis but `dim` (of the whole array for -1), keeping `dim`'s size."""
    if dim == -1:
        return np.asarray(np.sqrt((weight * weight).sum()), weight.dtype)
    axes = tuple(i for i in range(weight.ndim) if i != dim)
    return np.sqrt((weight * weight).sum(axis=axes, keepdims=True))


def _recompute(cell) -> None:
    v = getattr(cell, cell.wn_name + "_v").asnumpy()
    g = getattr(cell, cell.wn_name + "_g").asnumpy()
    getattr(cell, cell.wn_name).set_data(Tensor(g * v / _norm(v, cell.wn_dim)))


def weight_norm(cell, name="weight", dim=-1, axis=None):
    if axis is not None:
        dim = axis
    weight = getattr(cell, name).asnumpy()
    setattr(cell, name + "_g", Parameter(Tensor(_norm(weight, dim))))
    setattr(cell, name + "_v", Parameter(Tensor(weight)))
    cell.wn_name, cell.wn_dim = name, dim
    cell.wn_construct = cell.construct

    def construct(self, *args, **kwargs):
        _recompute(self)
        return self.wn_construct(*args, **kwargs)

    cell.construct = types.MethodType(construct, cell)
    return cell
