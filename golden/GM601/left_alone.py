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
        return outs, copy, e, view, self.rebinds(outs, x), self.sorts(x, d)

    def rebinds(self, feats, x):
        feats = list(feats)  # its own list now
        feats.append(x)
        return feats

    def sorts(self, values, table):
        values.sort()  # a tensor sorts too: not a list-only method
        table.pop("a")  # a dict
        return values


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


class Inputs(nn.Cell):
    def construct(self, feats):
        feats.append(feats[0])  # construct's own input: nothing in graph code reads the caller's list
        return feats


class Later(nn.Cell):
    def construct(self, xs):
        inputs = [x * 2 for x in xs]
        new_inputs = []
        for x in inputs:
            new_inputs.extend([x, x])  # `inputs = new_inputs` comes after: not shared yet
        inputs = new_inputs
        return inputs
