"""A head that grows a clip limit (GM201) and keeps a share of its channels (GM303), over blocks.Stack."""

import mindspore as ms
from mindspore import Parameter, Tensor, nn, ops

from blocks import Stack


class Head(nn.Cell):
    def __init__(self, rate=0.5):
        super().__init__()
        self.rate = rate
        self.stack = Stack()
        self.limit = Parameter(Tensor(1.0, ms.float32), requires_grad=False)

    def construct(self, x):
        c = x.shape[1]
        kept = x[:, : round(self.rate * c)]
        y = ops.clip_by_value(self.stack(x), -self.limit, self.limit)
        self.limit.set_data(self.limit + 0.25)
        return y, kept
