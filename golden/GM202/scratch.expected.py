import mindspore as ms
from mindspore import nn, ops


class Attention(nn.Cell):
    def __init__(self):
        super().__init__()
        self.probs = None
        self.table = None

    def construct(self, q, k):
        probs = ops.softmax(ops.matmul(q, k.swapaxes(-1, -2)), -1)  # scores
        scale = q.shape[-1]
        table = ops.ones((4, 4), ms.float32)
        return ops.matmul(probs, k) / scale + table.sum()


class Watched(nn.Cell):
    """Read by another method: state of the object, left alone."""

    def __init__(self):
        super().__init__()
        self.last = None

    def construct(self, x):
        self.last = x * 2
        return self.last

    def inspect(self):
        return self.last


class ReadFirst(nn.Cell):
    """Read before it is written: the previous call's value, left alone."""

    def __init__(self):
        super().__init__()
        self.prev = 0

    def construct(self, x):
        out = x + self.prev
        self.prev = x.sum()
        return out


def peek(net):
    return net.seen


class Peeked(nn.Cell):
    def construct(self, x):
        self.seen = x + 1  # read by `peek` outside the class: left alone
        return self.seen
