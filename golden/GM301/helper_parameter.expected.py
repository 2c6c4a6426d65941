# A helper's parameter is a tensor when every call of the helper in the file passes one from graph code.
import mindspore as ms
from mindspore import nn, ops


class Net(nn.Cell):
    def construct(self, x: ms.Tensor, names):
        self._check(ops.relu(x), names)
        return self._rows(x) + self._listed([x, x]) + scale(x) + self._twice(x) + self._twice([x])

    def _check(self, x, names):
        if x.shape[0] != len(names):  # every call passes a tensor: len is the first dimension
            raise ValueError("one name per row")

    def _rows(self, x):
        return x * len(x)

    def _listed(self, xs):
        return xs[0] * len(xs)  # a list: left alone

    def _twice(self, x):
        return len(x)  # called with a tensor and with a list: left alone

    def outside(self, x):
        return self._rows([x])  # a call outside graph code: `_rows`'s `x` may be a list


def scale(x):
    return x / x.shape[0]  # a module function, called with a tensor
