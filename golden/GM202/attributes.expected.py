import mindspore as ms
from mindspore import Parameter, Tensor, nn, ops


class Counter(nn.Cell):
    def __init__(self):
        super().__init__()
        self.calls = 0
        self.cache = None
        self.offset = Tensor(0.0, ms.float32)
        self.step = Parameter(Tensor(0, ms.int32), requires_grad=False)
        self.w, self.b = Parameter(Tensor(1.0)), Parameter(Tensor(0.0))
        self.state = self.make_state()

    def make_state(self):
        return Parameter(Tensor(0.0), name="state")

    def construct(self, x):
        self.calls = self.calls + 1
        cache = x.mean((2, 3))
        self.offset += 1.0
        last, first = x[-1], x[0]
        self.step = self.step + 1  # a Parameter: fine
        self.w = self.w * 2
        self.state = x.sum()  # set from a call graphmend cannot see into: not reported
        return x * self.calls + self.offset + cache.sum()
