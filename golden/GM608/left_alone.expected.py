from mindspore import nn, ops


def host(a, b):
    t = ops.relu(a)
    return t is b  # not graph code


class Plain(nn.Cell):
    def __init__(self):
        super().__init__()
        self.mode = "a"
        self.act = nn.ReLU()

    def construct(self, x, mask=None):
        h = ops.relu(x)
        if mask is None:  # None: fine
            mask = h
        if self.mode is "a":  # a string: measured fine
            h = h * 2
        if self.act is not None and h is not True:
            h = self.act(h)
        return h
