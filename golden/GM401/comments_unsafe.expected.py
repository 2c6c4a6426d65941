# Comments in and around the branches survive the rewrite, before the new statement.
import mindspore as ms
from mindspore import nn, ops as P


class Net(nn.Cell):
    def construct(self, x):
        # choose the scale
        # double them
        # and keep the sign
        # otherwise shift
        y, z = P.where(x.mean() > 0, x * 2, x - 1), P.where(x.mean() > 0, x, -x)  # positive activations
        return y + z
