# Graph code is more than `construct`: same-file bases, helpers called from it, @jit functions,
# and module-level functions called from graph code.
import mindspore
import numpy as np
from mindspore import jit as compile_me
from mindspore import nn, ops
from mindspore.nn import Cell


def padding(n):
    return ops.zeros((n, 2), mindspore.float32)


class Base(Cell):
    def helper(self, x):
        return x + ops.ones((x.shape[0], 1), mindspore.float32)


class Net(Base):
    def construct(self, x):
        def inner(y):
            return y * ops.full((y.shape[0], 1), 2.0, dtype=mindspore.float32)

        return inner(self.helper(x)) + padding(x.shape[0])[:, :1]

    def not_called(self, x):
        return np.zeros(3)


class Dense(nn.Dense):
    def construct(self, x):
        return super().construct(x) + ops.zeros((x.shape[0], 1), mindspore.float32)


@compile_me
def standalone(x):
    return x + ops.ones((x.shape[0], 1), mindspore.float32)


@mindspore.jit(capture_mode="ast")
def standalone_called(x):
    return x + ops.ones((x.shape[0], 1), mindspore.float32)
