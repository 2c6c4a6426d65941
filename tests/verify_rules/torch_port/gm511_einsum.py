"""GM511: `ops.einsum`, whose only kernel is on GPU (on CPU it fails in PyNative and every graph mode)."""

import mindspore
import numpy as np
from mindspore import Tensor, nn, ops


class Einsums(nn.Cell):
    """The equations of mindnlp's and HuggingFace's ports; x is (batch, heads, length, dim)."""

    def __init__(self):
        super().__init__()
        self.positions = Tensor(np.linspace(-1, 1, 4 * 6 * 5).reshape(4, 6, 5), mindspore.float32)
        self.weight = Tensor(np.linspace(-1, 1, 5 * 2 * 3).reshape(5, 2, 3), mindspore.float32)
        self.inv_freq = Tensor(np.linspace(0.1, 1.0, 5), mindspore.float32)
        self.projection = Tensor(np.linspace(-1, 1, 2 * 4 * 5).reshape(2, 4, 5), mindspore.float32)

    def construct(self, x):
        k = x * 2 - 1
        scores = ops.einsum("bnqd,bnkd->bnqk", x, k)
        relative = ops.einsum("bhld,lrd->bhlr", x, self.positions)
        freqs = ops.einsum("i,j->ij", ops.arange(4, dtype=mindspore.float32), self.inv_freq)
        mixed = ops.einsum("ibh,hnd->ibnd", x[:, 0], self.weight)
        heads = ops.einsum("ijbn->bnij", scores)
        pooled = ops.einsum("blh,bl->bh", x[:, 0], x[:, 0, :, 0])
        outer = ops.einsum("bnq,bnk->bnqk", x[..., 0], k[..., 0])
        total = ops.einsum("ij->j", freqs)
        dots = ops.einsum("bnqk,bnqk->bnq", scores, scores)
        # two or more contracted indices (XLNet's attention output), and all of them shared
        merged = ops.einsum("ibnd,hnd->ibh", x, self.projection)
        energy = ops.einsum("bnld,bnld->b", x, k)
        # a leading `...`: as many batch axes as the operands have
        context = ops.einsum("...qk,...kd->...qd", scores, x)
        swapped = ops.einsum("...ld->...dl", x)
        moved = ops.einsum("...hld->...ldh", x)
        return scores, relative, freqs, mixed, heads, pooled, outer, total, dots, merged, energy, context, swapped, moved


class PortedEinsum(nn.Cell):
    """mindone's CLAP: torch's `einsum` ported as `ms.einsum`, which MindSpore does not have (AttributeError)."""

    def __init__(self):
        super().__init__()
        self.positions = Tensor(np.linspace(-1, 1, 4 * 6 * 5).reshape(4, 6, 5), mindspore.float32)

    def construct(self, x):
        return mindspore.einsum("bhld,lrd->bhlr", x, self.positions)
