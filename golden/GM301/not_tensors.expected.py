# len() of Python containers, of shapes, and of values graphmend cannot prove are tensors: never touched.
from typing import List

import mindspore as ms
from mindspore import nn, ops


class YOLOHead(nn.Cell):
    """Detection heads take a list of feature maps: `x` is a list here."""

    def __init__(self, nl=3):
        super().__init__()
        self.nl = nl
        self.m = nn.CellList([nn.Conv2d(4, 4, 1) for _ in range(nl)])

    def construct(self, x):
        z = ()
        for i in range(len(x)):
            z += (self.m[i](x[i]),)
        return ops.concat(z, 1), len(self.m), len(z)


class AdaptiveScaleFusion(nn.Cell):
    def construct(self, x, scale_att):
        return ops.concat([scale_att[:, i : i + 1] * x[i] for i in range(len(x))], axis=1)


class Shortcut(nn.Cell):
    def construct(self, x):
        if isinstance(x, (tuple, list)) and len(x) == 2:
            return x[0] + x[1]
        return x.view(x.shape[0], -1)


class Neck(nn.Cell):
    def construct(self, hidden_states: List[ms.Tensor], feats):
        n = len(feats)  # a list turned into a tensor below: len() reads the list
        feats = ops.stack(feats)
        return feats.view(n, -1), len(hidden_states), len(feats.shape), len("abc")


class Splits(nn.Cell):
    def construct(self, x: ms.Tensor):
        parts = ops.split(x, 2)
        values, indices = ops.max(x, 1)
        return len(parts), len(ops.chunk(x, 2)), len(x.shape), len((x, x))


class Shadowed(nn.Cell):
    def construct(self, x: ms.Tensor):
        len = self.count  # a local len is not the builtin
        return x * len(x)


class NotACell:
    def construct(self, x: ms.Tensor):
        return len(x)


class CrossViT(nn.Cell):
    """mindcv's CrossViT annotates its list of branch outputs as a Tensor, and loops over it."""

    def __init__(self, heads):
        super().__init__()
        self.head = heads

    def construct(self, xs):
        return self.forward_head(xs)

    def forward_head(self, x: ms.Tensor):
        ce_logits = []
        zz = 0
        for c in x:
            ce_logits.append(self.head[zz](c))
            zz = zz + 1
        return ops.stack(ce_logits).mean(0) * len(x)
