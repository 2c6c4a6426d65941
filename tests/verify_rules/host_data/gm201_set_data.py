"""GM201: Parameter.set_data in construct (seed 004's growing clip)."""

import mindspore as ms
from mindspore import Parameter, Tensor, nn, ops


class Grow(nn.Cell):
    def __init__(self):
        super().__init__()
        self.limit = Parameter(Tensor(1.0, ms.float32), requires_grad=False)

    def construct(self, x):
        y = ops.clip_by_value(x, -self.limit, self.limit)
        self.limit.set_data(self.limit + 0.25)
        return y
