"""GM605: a list comprehension with two `for` clauses and a condition."""

from mindspore import nn, ops


class Pairs(nn.Cell):
    def construct(self, x):
        scaled = [x * (i + j) for i in range(2) if i >= 0 for j in range(3)]
        return ops.stack(scaled).sum(0)
