import mindspore as ms
from mindspore import nn


class Counter(nn.Cell):
    def __init__(self):
        super().__init__()
        self.count = ms.Parameter(ms.Tensor(0, ms.int32), name="count")
        self.count.set_data(ms.Tensor(1, ms.int32))  # __init__ is not graph code

    def construct(self, x):
        updated = self.count.set_data(self.count + 1)
        self.count.set_data(
            updated * 2,  # a comment inside the call survives
        )
        return x * self.count.set_data(self.count - 1)
