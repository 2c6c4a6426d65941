import numpy as onp
import mindspore.numpy as mnp
from mindspore import nn, ops


def host(x):
    return mnp.where(x > 0, x, 0)  # not graph code


class Others(nn.Cell):
    def construct(self, x):
        h = ops.abs(x)
        nonzero = mnp.where(h > 1)  # the one-argument form: indices
        already = ops.where(h > 1, h, x)  # graph-native already
        where = mnp.where
        return nonzero, already, where


class Host(nn.Cell):
    def construct(self, x):
        return onp.where(x.asnumpy() > 0, 1, 2)  # host numpy: another rule's
