"""examples/export_pitfalls.py fixed by hand: the reference rewrite for the verifier tests.

A PyTorch port: `len(x)` as a shape, `dim=` on a functional op, and a loss accumulated
with `+=` into a constant tensor, which GRAPH_MODE silently carries over from call to call.
"""

import mindspore as ms
from mindspore import nn, ops


class SmallClassifier(nn.Cell):
    def __init__(self, in_channels=3, num_classes=10):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, 4, 3, pad_mode="same")
        self.head = nn.Dense(4 * 8 * 8, num_classes)

    def construct(self, x):
        n = x.shape[0]
        feats = ops.relu(self.conv(x))
        logits = self.head(feats.view(n, -1))
        return ops.softmax(logits, axis=1)


class MultiLevelLoss(nn.Cell):
    """Sums a smooth-L1 loss over feature levels, as RPN heads do."""

    def __init__(self, levels=3):
        super().__init__()
        self.levels = levels
        self.smooth_l1 = nn.SmoothL1Loss()

    def construct(self, pred, target):
        loss = ms.Tensor(0.0, ms.float32)
        for i in range(self.levels):
            loss = loss + self.smooth_l1(pred * (i + 1), target).mean()
        return loss
