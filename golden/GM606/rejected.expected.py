import mindspore as ms
from mindspore import nn, ops


def gen(n):
    for i in range(n):
        yield i


class Everything(nn.Cell):
    def __init__(self):
        super().__init__()
        self.k = 1

    def construct(self, x):
        try:
            y = x * 2
        except ValueError:
            y = x
        match self.k:
            case 1:
                y = y * 2
            case _:
                y = y
        import math
        from math import pi
        total = y

        def add():
            nonlocal total
            total = total + 1

        add()
        s = set((1, 2))
        t = set([i for i in range(3)])
        for v in gen(3):
            total = total + v
        return total * len(s) * len(t) * math.pi * pi


@ms.jit
def careful(x):
    try:
        return x * 2
    except ValueError:
        return x
