"""GM605: a list comprehension with two `for` clauses and a condition; XLNet's `tuple(...)` of a generator
with two clauses that reads the name it is assigned to."""

from mindspore import nn, ops


class Pairs(nn.Cell):
    def construct(self, x):
        scaled = [x * (i + j) for i in range(2) if i >= 0 for j in range(3)]
        parts = (scaled[:2], scaled[2:])
        parts = tuple(p * 2 for ps in parts for p in ps)
        return ops.stack(scaled).sum(0) + ops.stack(parts).sum(0)
