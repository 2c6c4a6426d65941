from mindspore import ParameterTuple, nn, ops


class Collected(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)
        self.weights = ParameterTuple(self.trainable_params())  # __init__ runs in Python

    def construct(self, x, opt):
        y = self.dense(x)
        for p in self.weights:  # collected in __init__: fine
            y = y + p.sum()
        return y + opt.trainable_params  # not a call on self


def count(net):
    return len(net.trainable_params())  # not graph code


class OwnParameters(nn.Cell):
    def parameters(self):  # the file defines it: not torch's
        return (self.scale,)

    def construct(self, x):
        return x * next(iter(self.parameters()))
