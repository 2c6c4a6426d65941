# Names bound to computed tensors, Python numbers, lists or numpy arrays: `+=` is fine there.
import mindspore as ms
import numpy as np
from mindspore import Parameter, Tensor, nn, ops


class NotConstant(nn.Cell):
    def __init__(self):
        super().__init__()
        self.weight = Parameter(Tensor(1.0, ms.float32))
        self.scale = 2.0

    def construct(self, x, y):
        zeros = ops.zeros((), ms.float32)
        zeros += x.sum()
        computed = ops.reduce_mean(x) * 0
        computed += x.sum()
        count = 0
        count += 1
        outs = [Tensor(0.0)]
        outs += [x]
        host = np.zeros(3)
        host += 1
        param = self.weight
        param += 1.0
        rebound = Tensor(0.0)
        rebound = rebound + x.sum()
        y += 1
        self.scale += 1.0
        return zeros, computed, count, outs, host, param, rebound, y


def outside_graph_code(x):
    total = Tensor(0.0)
    total += x
    return total


class Unpacked(nn.Cell):
    def construct(self, x):
        a, b = Tensor(0.0), Tensor(1.0)
        a += x.sum()
        c = Tensor(0.0)
        for c in (x, x):
            pass
        c += x.sum()
        return a, b, c


class Rebound(nn.Cell):
    def construct(self, x):
        total = Tensor(0.0)
        total = total + x.sum()
        total += 1.0  # bound to a computed tensor just before: not affected
        return total
