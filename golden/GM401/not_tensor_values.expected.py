# Conditions on shapes, None, isinstance, config flags, self.training and Python ints are Python
# values: never reported, never touched.
from typing import Optional

import mindspore as ms
from mindspore import nn, ops


class Net(nn.Cell):
    def __init__(self, use_bias=True, threshold=2):
        super().__init__()
        self.use_bias = use_bias
        self.threshold = threshold
        self.layers = nn.CellList([nn.Dense(4, 4)])

    def construct(self, x, mask=None, feats=None):
        if x.shape[0] > 2:
            x = x * 2
        if mask is not None:
            x = x * mask
        if isinstance(feats, (list, tuple)):
            x = x + feats[0]
        if self.use_bias and self.threshold > 1:
            x = x + 1
        if self.training:
            x = ops.dropout(x, 0.1)
        if len(self.layers) > 1:
            x = self.layers[0](x)
        n = 3
        while n > 0:
            n -= 1
        scale = 2.0 if x.ndim == 4 else 1.0
        if feats:  # a Python list: truthiness is its length
            x = x + 1
        return x * scale


class Attention(nn.Cell):
    """Ported code annotates boolean flags as tensors; a flag tested for truth is not trusted."""

    def construct(
        self,
        x,
        output_attentions: Optional[ms.Tensor] = False,
        return_weights: Optional[ms.Tensor] = None,
    ):
        weights = ops.softmax(x, axis=-1)
        outputs = (x, weights) if output_attentions else (x,)
        if return_weights:
            outputs = outputs + (weights,)
        return outputs


class NotACell:
    def construct(self, x: ms.Tensor):
        if x.mean() > 0:
            return x
        return -x
