import mindspore as ms
from mindspore import nn, ops


class Search(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layers = nn.CellList([nn.ReLU(), nn.Tanh()])

    def construct(self, x):
        # walk the layers until one is skipped
        no_break = True
        for i in range(3):
            if i == 5:
                no_break = False
                break
            for j in range(2):
                if j == 1:
                    break  # the inner loop's own break
            x = x + i
        if no_break:  # no layer was skipped
            x = x * 2
        i = 0
        no_break = True
        while i < 3:
            i += 1
            if i == 7: no_break = False; break
        if no_break:
            x = x + 1
        return self.helper(x)

    def helper(self, x):
        no_break = 1
        no_break_2 = True
        for k in range(2):
            if k > 4: x = x * 3; no_break_2 = False; break
        if no_break_2:
            x = x - no_break
        return x


@ms.jit
def scan(x):
    no_break = True
    for _ in range(2):
        x = x + 1
    if no_break:
        x = x * 2
    return x
