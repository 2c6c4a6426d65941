from mindspore import nn, ops


class Gathered(nn.Cell):
    """A custom backward pass is graph code too: MindSpore compiles it with the gradient."""

    def construct(self, x, idx):
        return ops.gather_elements(x, 2, ops.broadcast_to(idx.unsqueeze(-1), x.shape))

    def bprop(self, x, idx, out, dout):
        expanded = ops.broadcast_to(idx.unsqueeze(-1), dout.shape)
        return ops.zeros_like(x).scatter_add(2, expanded, dout), None


class Helper:
    """Not a Cell: its bprop is plain Python."""

    def bprop(self, idx, shape):
        return idx.expand(shape)
