import numpy as np
import mindspore as ms
from mindspore import nn, ops


class OneName(nn.Cell):
    def construct(self, x):
        outs = [x]
        outs.append(x * 2)  # one name: fine in graph mode
        outs[0] = x * 3
        copy = list(outs)  # a new list, not an alias
        copy.append(x)
        d = {"a": x}
        e = d
        e.pop("a")  # a dict, not a list
        arr = np.zeros(3)
        view = arr
        view[0] = 1.0  # host numpy, not a list
        return outs, copy, e, view


def host(x):
    a = [x]
    b = a
    b.append(x)  # not graph code
    return a


class Builder(nn.Cell):
    def __init__(self):
        super().__init__()
        layers = []
        alias = layers
        alias.append(nn.ReLU())  # __init__ runs in Python
        self.layers = nn.CellList(layers)

    def construct(self, x):
        return self.layers[0](x)
