import mindspore as ms
from mindspore import nn, ops


class Search(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layers = nn.CellList([nn.ReLU(), nn.Tanh()])

    def construct(self, x):
        # walk the layers until one is skipped
        for i in range(3):
            if i == 5:
                break
            for j in range(2):
                if j == 1:
                    break  # the inner loop's own break
            x = x + i
        else:  # no layer was skipped
            x = x * 2
        i = 0
        while i < 3:
            i += 1
            if i == 7: break
        else:
            x = x + 1
        return self.helper(x)

    def helper(self, x):
        no_break = 1
        for k in range(2):
            if k > 4: x = x * 3; break
        else:
            x = x - no_break
        return x


@ms.jit
def scan(x):
    for _ in range(2):
        x = x + 1
    else:
        x = x * 2
    return x
