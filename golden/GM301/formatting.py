# The fix keeps parentheses and what surrounds the call; an expression argument gets parentheses.
import mindspore as ms
from mindspore import nn


class Net(nn.Cell):
    def construct(self, a: ms.Tensor, b: ms.Tensor):
        rows = (len(a))  # kept as written
        total = len(a + b) + len(a[0])
        return a * rows * total * len(
            b  # the comment is inside the call: the fix would drop it, so it is unsafe
        )
