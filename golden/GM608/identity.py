import mindspore as ms
from mindspore import nn, ops


class Same(nn.Cell):
    def construct(self, x, mask):
        h = ops.relu(x)
        y = h
        if y is h:  # True in PyNative, false in graph mode
            h = h * 2
        keep = h if ops.sigmoid(mask) is not h else mask
        return keep


@ms.jit
def check(x):
    a = ops.abs(x)
    return a is x
