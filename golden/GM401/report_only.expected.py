# Tensor conditions a select cannot replace: reported with what to do, never rewritten.
import mindspore as ms
from mindspore import nn, ops


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 3, 1)
        self.w = ms.Parameter(ms.Tensor(1.0, ms.float32), name="w")

    def construct(self, x, mask: ms.Tensor):
        if x.mean() > 100:
            raise ValueError("activations exploded")
        for _ in range(3):
            if x.max() > 1:
                break
            x = x * 0.5
        while x.sum() > 10:
            x = x - 1
        if x.mean() > 0:
            y = x.sum()  # shapes differ
        else:
            y = x
        if x.mean() > 0:
            y = self.conv(x)  # a Cell call may change state
        if mask.any() and x.mean() > 0:
            y = y + 1
        positive = x > 0
        if positive:
            y = y * 2
        if x > 0:
            y = y + 1
        if x.mean() > 0:
            fresh = x * 2
        elif x.mean() < -1:
            y = y - 1
        if x.mean() > 0:
            y = y + 1
            z = y * 2
        if x.mean() > 0:
            y = y + ops.rand_like(y)
        if x.mean() > 0:
            ops.assign(self.w, x.mean())
            y = y * 2
        if x.mean() > 0:
            return y
        y = y + 1
        return y + float(x.mean()) if x.mean().item() > 0 else y
