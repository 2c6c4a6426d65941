"""Seed 004 (examples/batch_renorm.py): the batch size as a tensor."""

import mindspore
from mindspore import Parameter, Tensor, nn, ops


class GrowingClip(nn.Cell):
    def __init__(self, num_features=3):
        super().__init__()
        self.limit = Parameter(Tensor(1.0, dtype=mindspore.float32), requires_grad=False)
        self.inc_step = Tensor(0.25, dtype=mindspore.float32)
        self.max_limit = Tensor(3.0, dtype=mindspore.float32)

    def construct(self, x):
        clipped_x = ops.clip_by_value(x, -self.limit, self.limit)
        batch_size = Tensor(x.shape[0], dtype=mindspore.float32)
        limit_new = self.limit + self.inc_step * batch_size
        ops.assign(self.limit, ops.minimum(limit_new, self.max_limit))  # grows by 0.25 per sample
        return clipped_x
