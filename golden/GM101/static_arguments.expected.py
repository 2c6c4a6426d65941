"""Constructors of values known before any input: wrapped, or bare of a rank (the axes of a reduction), they
are constants in every configuration, a dynamic batch included (tests/verify_rules/host_data/
gm101_static_rank.py measures it), and left alone. Bare constants of other numbers are rewritten with their
neighbours; constructors of a dimension, which a dynamic batch leaves unknown, are reported and fixed."""
import mindspore
import numpy as np
from mindspore import Tensor, nn, ops


class Axes(nn.Cell):
    def __init__(self, axis=1, k=4):
        super().__init__()
        self.axis = axis
        self.k = k

    def construct(self, x):
        ndim = x.ndim
        sh = np.arange(ndim)
        sh = sh[sh != self.axis]
        order = list(np.arange(len(x.shape)))
        steps = ops.arange(1, 10, 2, dtype=mindspore.int64)
        grid = ops.linspace(-1.0, 1.0, self.k * 2).astype(mindspore.float64)
        eye = Tensor(np.eye(self.k), x.dtype)
        y = ops.mean(x, tuple(sh.tolist()), keep_dims=True)
        batch = ops.arange(x.shape[0], dtype=mindspore.int64)  # a dimension: not known with a dynamic batch
        rows = ops.ones((x.shape[0], self.k), mindspore.float64)
        return y, order, steps, grid, eye, batch, rows


class LocationMask(nn.Cell):
    """mindocr's ABINet: a bare constant next to a constructor of a dimension. Both are rewritten: `np.ones`
    left numpy, `b - a` would meet the rewritten `a`'s tensor, which fails in every mode (measured)."""

    def _get_location_mask(self, sz):
        a = ops.eye(sz, sz, mindspore.float64)
        b = ops.ones((26, 26), mindspore.float64)
        mask = b - a
        return Tensor(mask).astype(np.bool_)

    def construct(self, tokens):
        return tokens * self._get_location_mask(tokens.shape[1])
