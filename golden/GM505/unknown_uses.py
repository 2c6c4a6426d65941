from mindspore import nn, ops


def postprocess(values):
    return values


class Net(nn.Cell):
    def construct(self, x, y):
        a = postprocess(x.max(1))
        b = x.max(1) * 2  # repeats a tuple in PyNative
        c = x.max(1) + y  # MindSpore may add an int pair to y
        d = ops.stack(x.min(0))
        e = x.max(1)
        f = e[0] + e.sum()
        return a, b, c, d, f, x.max(-1)
