from mindspore import nn


def host(rows):
    return [v for row in rows for v in row]  # not graph code


class Plain(nn.Cell):
    def __init__(self, rows):
        super().__init__()
        self.flat = [v for row in rows for v in row]  # __init__ runs in Python

    def construct(self, x):
        vals = [i * 2 for i in range(3)]  # one for clause: fine
        nested = [[i * j for j in range(2)] for i in range(2)]  # one clause each
        return x * (sum(vals) + len(nested))
