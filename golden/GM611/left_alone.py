"""Look-alikes: nothing here changes a constant graph code compiled in."""

from mindspore import Parameter, Tensor, nn, ops


class Held(nn.Cell):
    def __init__(self):
        super().__init__()
        self.k = Parameter(Tensor(2.0), requires_grad=False)
        self.dense = nn.Dense(4, 4)
        self.name_only = "held"
        self.cache = None

    def set_k(self, k):
        self.k = Parameter(Tensor(k), requires_grad=False)  # a Parameter: graph code reads it as one

    def replace_layer(self):
        self.dense = nn.Dense(4, 4)  # a Cell

    def rename(self, name):
        self.name_only = name  # construct never reads it

    def helper(self, x):
        self.cache = x  # runs in graph code (called from construct): GM202's, not this rule's
        return x

    def construct(self, x):
        return self.dense(x) * self.k + self.helper(x)


class NotACell:
    def __init__(self):
        self.k = 2

    def set_k(self, k):
        self.k = k

    def construct(self, x):
        return x * self.k


class Counter(nn.Cell):
    def __init__(self):
        super().__init__()
        self.add = ops.Add()

    def swap(self):
        self.add = ops.Sub()  # a primitive

    def construct(self, x):
        return self.add(x, x)
