# Graph code is more than `construct`: same-file bases, helpers called from it, @jit functions,
# and module-level functions called from graph code.
import mindspore
import numpy as np
from mindspore import jit as compile_me
from mindspore import nn
from mindspore.nn import Cell


def padding(n):
    return mindspore.Tensor(np.zeros((n, 2)), mindspore.float32)


class Base(Cell):
    def helper(self, x):
        return x + mindspore.Tensor(np.ones((x.shape[0], 1)), mindspore.float32)


class Net(Base):
    def construct(self, x):
        def inner(y):
            return y * mindspore.Tensor(np.full((y.shape[0], 1), 2.0), mindspore.float32)

        return inner(self.helper(x)) + padding(x.shape[0])[:, :1]

    def not_called(self, x):
        return np.zeros(3)


class Dense(nn.Dense):
    def construct(self, x):
        return super().construct(x) + mindspore.Tensor(np.zeros((x.shape[0], 1)), mindspore.float32)


@compile_me
def standalone(x):
    return x + mindspore.Tensor(np.ones((x.shape[0], 1)), mindspore.float32)


@mindspore.jit(capture_mode="ast")
def standalone_called(x):
    return x + mindspore.Tensor(np.ones((x.shape[0], 1)), mindspore.float32)
