from mindspore import nn, ops


class ReverseSort(nn.Cell):
    """mindnlp's reformer: an input kept for the backward pass, copied to a local there."""

    def construct(self, out_vectors, sorted_idx, undo_idx):
        # save sorted_idx for backprop

        # undo sort
        return ops.gather_elements(out_vectors, 2, undo_idx)

    def bprop(self, out_vectors, sorted_idx, undo_idx, out, dout):
        # get what construct saved
        return ops.gather_elements(dout, 2, sorted_idx), None, None


class Renamed(nn.Cell):
    """bprop names the input otherwise, reads the attribute in place, and construct reads it too."""

    def __init__(self):
        super().__init__()
        self.index = None

    def construct(self, x, idx):
        return ops.gather(x, idx, 0)

    def bprop(self, x, where, out, dout):
        return ops.zeros_like(x).index_add(0, where, dout), ops.zeros_like(where)


class Computed(nn.Cell):
    """A value computed from the inputs, not an input: bprop gets no parameter that holds it."""

    def construct(self, x):
        self.doubled = x * 2
        return self.doubled

    def bprop(self, x, out, dout):
        return (dout * self.doubled,)


class Rebound(nn.Cell):
    """The input changes before it is saved: bprop's parameter is the value before the change."""

    def construct(self, x, idx):
        idx = idx + 1
        self.idx = idx
        return ops.gather(x, idx, 0)

    def bprop(self, x, idx, out, dout):
        return ops.zeros_like(x).index_add(0, self.idx, dout), ops.zeros_like(idx)


class ChangedInBprop(nn.Cell):
    """bprop changes its own parameter before it reads the attribute."""

    def construct(self, x, idx):
        self.idx = idx
        return ops.gather(x, idx, 0)

    def bprop(self, x, idx, out, dout):
        idx = idx * 0
        return ops.zeros_like(x).index_add(0, self.idx, dout), idx


class ReadElsewhere(nn.Cell):
    """Another method reads what construct kept."""

    def construct(self, x, idx):
        self.idx = idx
        return ops.gather(x, idx, 0)

    def bprop(self, x, idx, out, dout):
        return ops.zeros_like(x).index_add(0, self.idx, dout), ops.zeros_like(idx)

    def last_index(self):
        return self.idx


class NotABprop(nn.Cell):
    """A `bprop` without (out, dout) is not MindSpore's backward pass."""

    def construct(self, x, idx):
        self.idx = idx
        return ops.gather(x, idx, 0)

    def bprop(self, x, idx):
        return self.idx
