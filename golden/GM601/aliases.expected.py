import mindspore as ms
from mindspore import nn, ops


class Pyramid(nn.Cell):
    def __init__(self):
        super().__init__()
        self.head = nn.Dense(4, 4)

    def construct(self, x):
        outs = [x]
        feats = outs
        feats.append(self.head(x))  # outs has 2 items in PyNative, 1 in graph mode
        feats2 = [x]
        self.collect(feats2, x)  # feats2 stays [x] in graph mode
        return outs, self.helper(x), feats2

    def collect(self, feats, x):
        feats.append(x * 2)
        feats.insert(0, x)

    def helper(self, x):
        a = [x, x * 2]
        b = a
        b[0] = x * 5
        a.extend([x])
        return b


@ms.jit
def step(x):
    queue = list((x, x))
    rest = queue
    rest.pop()
    rest.insert(0, x)
    rest.reverse()
    rest.clear()
    return len(queue)
