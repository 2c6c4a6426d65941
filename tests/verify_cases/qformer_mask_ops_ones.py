"""examples/qformer_mask.py fixed by hand: the rewrite graphmend should make.

`ms.Tensor(np.ones((batch, n)), dtype=ms.float32)` runs in PyNative, but GRAPH_MODE has to
turn the numpy call into a constant: with numpy 1.x it fails to compile, and with a dynamic
batch it can never be a constant.
"""

import mindspore as ms
import numpy as np
from mindspore import nn, ops


class ImageTextHead(nn.Cell):
    """Queries attend over image tokens, masked by an all-ones attention mask."""

    def __init__(self, dim=16, num_query=4):
        super().__init__()
        self.vmodel = nn.Dense(dim, dim)
        # numpy in __init__ is fine: it runs once, on the host.
        init = np.linspace(-0.5, 0.5, num_query * dim).reshape(1, num_query, dim)
        self.query_tokens = ms.Parameter(ms.Tensor(init, ms.float32), name="query_tokens")
        self.proj = nn.Dense(dim, dim)

    def construct(self, img_tensor):
        img_embeds = self.vmodel(img_tensor)  # (B, N, D)
        batch_size = img_embeds.shape[0]
        img_atts = ops.ones((batch_size, img_embeds.shape[1]), ms.float32)
        queries = ops.broadcast_to(self.query_tokens, (batch_size, -1, -1))
        scores = ops.matmul(queries, img_embeds.swapaxes(1, 2))  # (B, Q, N)
        scores = scores + (1.0 - img_atts.expand_dims(1)) * -1e4
        weights = ops.softmax(scores, axis=-1)
        return self.proj(ops.matmul(weights, img_embeds))
