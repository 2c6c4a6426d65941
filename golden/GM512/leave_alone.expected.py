"""Not mint.einsum in graph code: left to GM511 (ops.einsum), numpy's, and code outside graph code."""
import numpy as np
from mindspore import mint, nn, ops


class Other(nn.Cell):
    def construct(self, a, b):
        return ops.einsum("ij,jk->ik", a, b), np.einsum("i,i->", np.ones(3), np.ones(3))


def outside(a, b):
    return mint.einsum("ij,jk->ik", a, b)
