"""GM206: two layers with Parameters built in one construct: their Parameters share a name, and GRAPH, STRICT and a
dynamic batch fail too ("its name 'gamma' already exists")."""

from mindspore import nn, ops


class TwoNorms(nn.Cell):
    def construct(self, x):
        _, c, h, w = x.shape
        y = nn.LayerNorm([w])(x)
        return ops.relu(nn.LayerNorm([c, h, w], begin_norm_axis=1, begin_params_axis=1)(y))
