"""GM602: `for … else` and `while … else`, with a break on a constant and on a tensor value."""

from mindspore import nn


class Search(nn.Cell):
    def construct(self, x):
        for i in range(3):
            if i == 5:
                break
            x = x + i
        else:
            x = x * 2
        for j in range(3):
            if x.sum() > 1000.0:
                break
            x = x - j
        else:
            x = x + 1
        k = 0
        while k < 2:
            k += 1
        else:
            x = x * 3
        return x
