"""A port that dropped `import torch` but kept the calls (NameError in every mode)."""

import mindspore
from mindspore import nn, ops


class Net(nn.Cell):
    def construct(self, x):
        return ops.sigmoid(x) * ops.tanh(x).to(mindspore.int64)
