"""GM101: a numpy constructor with a layout method inside `Tensor(...)` (the fix must drop the wrapper).

The mask's size follows the batch: with a static `np.eye(self.k)` there is a constant to fold in every
configuration and GM101 leaves it alone (golden/GM101/tensor_wrappers.py keeps that look-alike).
"""

import numpy as np
from mindspore import Tensor, nn


class FlatMask(nn.Cell):
    def __init__(self, k=4):
        super().__init__()
        self.k = k

    def construct(self, x):
        mask = Tensor(np.ones((x.shape[0], 3 * self.k * self.k)).flatten().astype(np.float32))
        return x.reshape(-1) + mask
