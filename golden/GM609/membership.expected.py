import mindspore as ms
from mindspore import Tensor, nn, ops


class Gate(nn.Cell):
    def __init__(self, pad=0):
        super().__init__()
        self.pad = pad

    def construct(self, x: Tensor, ids):
        if (x == 2).any():  # a number in an input typed as a tensor
            x = x * 2
        y = x * 3 if -1 not in ids else x
        while (y == 0.5).any() and not (7 in ids):
            y = y - 1
        mask = ops.ones_like(x)
        assert (mask == 1).any(), "an op's result is a tensor too"
        if ((x == x.sum()).any()) or 3 in (ids + 1):
            y = y + 1
        found = 4 in ids  # a value, not a test: the fix would make it a Tensor
        return y, found


@ms.jit
def has_pad(ids):
    return ops.ones((2,)) if 0 in ids else ops.zeros((2,))
