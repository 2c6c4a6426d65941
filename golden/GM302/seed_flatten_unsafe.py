# Seed 002: `x.view(x.shape[0], -1)` "failed shape inference" on export; the article suggests ops.Flatten.
# The rank of `x` is unknown here, so the rewrite is unsafe (a 1-D `x` would lose a trailing 1).
import mindspore as ms
from mindspore import nn


class MyResNet(nn.Cell):
    def __init__(self, num_classes=10):
        super().__init__()
        self.features = nn.Conv2d(3, 8, 3)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.head = nn.Dense(8, num_classes)

    def construct(self, x):
        x = self.pool(self.features(x))
        return self.head(x.view(x.shape[0], -1))
