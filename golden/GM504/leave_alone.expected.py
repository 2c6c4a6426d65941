import numpy as np
from mindspore import nn
from mindspore import numpy as mnp


class Net(nn.Cell):
    def construct(self, x):
        a = np.array([3, 1, 2]).argmax()
        b = mnp.argmax(x)
        c = [3, 1].index(1)
        return x * (a + c), b


def host(scores):
    return scores.argmax()
