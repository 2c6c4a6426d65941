# The fix keeps parentheses and what surrounds the call; an expression argument gets parentheses.
import mindspore as ms
from mindspore import nn


class Net(nn.Cell):
    def construct(self, a: ms.Tensor, b: ms.Tensor):
        rows = (a.shape[0])  # kept as written
        total = (a + b).shape[0] + a[0].shape[0]
        return a * rows * total * len(
            b  # the comment is inside the call: the fix would drop it, so it is unsafe
        )
