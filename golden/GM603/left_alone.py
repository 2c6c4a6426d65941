from mindspore import nn


def read_config(lines):
    if (n := len(lines)) > 3:  # not graph code
        return n
    return 0


class Plain(nn.Cell):
    def __init__(self, sizes):
        super().__init__()
        if (count := len(sizes)) > 1:  # __init__ runs in Python
            self.count = count

    def construct(self, x):
        n = x.shape[1]
        return x * n
