# Seed 004: Parameter.set_data in construct is rejected by GRAPH_MODE.
import mindspore
import mindspore.nn as nn
import mindspore.ops as ops
from mindspore import Tensor, Parameter


class TestCell(nn.Cell):
    def __init__(self, num_features):
        super(TestCell, self).__init__()
        self.limit = Parameter(Tensor(1.0, dtype=mindspore.float32), requires_grad=False)
        self.inc_step = Tensor(0.0001, dtype=mindspore.float32)
        self.max_limit = Tensor(3.0, dtype=mindspore.float32)

    def construct(self, x):
        clipped_x = ops.clip_by_value(x, -self.limit, self.limit)
        batch_size = Tensor(x.shape[0], dtype=mindspore.float32)
        limit_new = self.limit + self.inc_step * batch_size
        ops.assign(self.limit, ops.minimum(limit_new, self.max_limit))
        return clipped_x
