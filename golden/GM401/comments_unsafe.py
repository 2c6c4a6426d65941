# Comments in and around the branches survive the rewrite, before the new statement.
import mindspore as ms
from mindspore import nn, ops as P


class Net(nn.Cell):
    def construct(self, x):
        # choose the scale
        if x.mean() > 0:  # positive activations
            # double them
            y = x * 2  # and keep the sign
            z = x
        # otherwise shift
        else:
            y = x - 1
            z = -x
        return y + z
