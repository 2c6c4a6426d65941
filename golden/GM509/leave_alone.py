from mindspore import nn, ops


def dropout(x, p):
    return x


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.drop = nn.Dropout(p=0.1)

    def construct(self, x):
        return self.drop(x) + dropout(x, 0.1) + ops.dropout(x, 0.1, self.training)


def not_graph(x):
    return ops.dropout(x, 0.1)
