from mindspore import nn, ops


class Net(nn.Cell):
    def construct(self, x, idx, kw):
        a = ops.gather(x, dim=1, index=idx)  # torch's gather: ops.gather_elements
        b = ops.softmax(x, dim=1, axis=1)
        c = ops.cat([x, x], dim=1, **kw)
        return a, b, c
