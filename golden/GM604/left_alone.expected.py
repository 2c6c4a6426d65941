from mindspore import nn


def host(items):
    tmp = list(items)
    del tmp  # not graph code
    return items


class Plain(nn.Cell):
    def __init__(self, sizes):
        super().__init__()
        scratch = list(sizes)
        del scratch  # __init__ runs in Python
        self.n = len(sizes)

    def construct(self, x):
        return x * self.n
