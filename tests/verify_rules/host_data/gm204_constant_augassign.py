"""GM204: `+=` on constant tensors drifts from call to call in GRAPH_MODE (the RPN-head pattern)."""

import mindspore as ms
import numpy as np
from mindspore import nn, ops


class RPNLoss(nn.Cell):
    def __init__(self, levels=3):
        super().__init__()
        self.levels = levels
        self.loss = ms.Tensor(np.zeros((1,)).astype(np.float32))

    def construct(self, x):
        loss = self.loss
        total = ms.Tensor(0.0, ms.float32)
        for i in range(self.levels):
            level = ops.reduce_mean(x * (i + 1))
            loss += level
            total -= level - 1.0
        return loss, total
