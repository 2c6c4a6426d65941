from mindspore import nn, ops


class Proj(nn.Cell):
    def __init__(self):
        super().__init__()
        self.proj = nn.Dense(4, 4)
        self.cache = None

    def construct(self, x):
        t = self.proj(x)
        y = ops.relu(t)
        del t
        a, b = y, y * 2
        del a, b
        if y.shape[0] > 1:
            u = y + 1
            del u
        for z in range(2):
            del z
        del self.cache
        d = {"k": y}
        del d["k"]
        v = y; del v
        w = y * 3
        del w  # drops the comment: unsafe
        return y
