import mindspore as ms
from mindspore import Parameter, Tensor, nn, ops
from mindspore.common.parameter import Parameter as P


class Rglru(nn.Cell):
    """mindone's RecurrentGemma: two gates whose weights and biases share a name."""

    def __init__(self, heads, width):
        super().__init__()
        self.input_gate_weight = ms.Parameter(ops.zeros((heads, width, width)), name="weight")
        self.input_gate_bias = ms.Parameter(ops.zeros((heads, width)), name="bias")
        self.recurrent_gate_weight = ms.Parameter(ops.zeros((heads, width, width)), name="recurrent_gate_weight")
        self.recurrent_gate_bias = ms.Parameter(ops.zeros((heads, width)), name='recurrent_gate_bias')  # single quotes kept

    def construct(self, x):
        return x @ self.input_gate_weight + self.input_gate_bias + x @ self.recurrent_gate_weight


class Scales(nn.Cell):
    """Three with one name, positional names, and an attribute name that is taken as a name already."""

    def __init__(self):
        super().__init__()
        self.a = Parameter(Tensor(1.0), "w")
        self.b = P(Tensor(2.0), "b_2")
        self.w = Parameter(Tensor(3.0), name="b")
        self.c = Parameter(Tensor(4.0), name="c")
        self.d = Parameter(Tensor(5.0), name="d")

    def construct(self, x):
        return x * self.a + self.b + self.w + self.c + self.d


class Outer(nn.Cell):
    """A Cell class nested in another: each class's names are its own, and each finding is reported once."""

    class Inner(nn.Cell):
        def __init__(self):
            super().__init__()
            self.p = Parameter(Tensor(1.0), name="w")
            self.q = Parameter(Tensor(2.0), name="q")

        def construct(self, x):
            return x * self.p + self.q

    def __init__(self):
        super().__init__()
        self.inner = self.Inner()
        self.w = Parameter(Tensor(3.0), name="w")

    def construct(self, x):
        return self.inner(x) * self.w
