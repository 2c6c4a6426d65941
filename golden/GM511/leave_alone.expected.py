"""einsum that is not ops.einsum, or not in graph code: left alone."""

import numpy as np
from mindspore import mint, nn, ops


def einsum(equation, *operands):
    return operands[0]


class Net(nn.Cell):
    def construct(self, a, b):
        x = mint.einsum("bnqd,bnkd->bnqk", a, b)  # GRAPH compiles mint.einsum on CPU (static shapes)
        y = einsum("i,j->ij", a, b)  # the file's own einsum
        z = np.einsum("m,d->md", np.arange(3), np.arange(4))  # host numpy: GM103's, not this rule's
        return x, y, z


def outside(a, b):
    return ops.einsum("i,j->ij", a, b)  # not graph code
