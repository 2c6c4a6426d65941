"""dim= where MindSpore takes it: ops that take `dim`, mint, Tensor methods, primitives, other libraries."""

import numpy as np
from mindspore import mint, nn, ops
from mindspore.ops import operations as P


def softmax(x, dim):
    return x


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.softmax = P.Softmax(axis=1)

    def construct(self, x, idx):
        a = ops.sum(x, dim=1, keepdim=True)
        b = ops.argmax(x, dim=1, keepdim=True)
        c = ops.unsqueeze(x, dim=0)
        d = ops.topk(x, 2, dim=-1)
        e = ops.gather_elements(x, dim=1, index=idx)
        f = mint.cat([x, x], dim=1)
        g = x.mean(dim=(2, 3), keepdim=True)
        h = softmax(x, dim=1)
        i = ops.cat([x, x], axis=1)
        j = np.concatenate([np.ones(2)], axis=0)
        return a, b, c, d, e, f, g, h, i, j, self.softmax(x)


def not_graph_code(x):
    return ops.softmax(x, dim=1)
