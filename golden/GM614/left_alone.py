import mindspore as ms
from mindspore import Parameter, Tensor, nn, ops
from torch.nn import Parameter as TorchParameter


class Linear(nn.Cell):
    """mindformers' Linear: the same attribute in two branches is one Parameter."""

    def __init__(self, moe, shape):
        super().__init__()
        if moe:
            self.weight = Parameter(ops.zeros(shape), name="weight")
        else:
            self.weight = Parameter(ops.ones(shape), name="weight")

    def construct(self, x):
        return x * self.weight


class GaussianFourierProjection(nn.Cell):
    """mindone's diffusers: the first holder is deleted before the name is given again."""

    def __init__(self, size):
        super().__init__()
        self.weight = ms.Parameter(ops.ones(size), requires_grad=False, name="weight")
        del self.weight
        self.W = ms.Parameter(ops.ones(size), requires_grad=False, name="weight")
        self.weight = self.W
        del self.W

    def construct(self, x):
        return x * self.weight


class RunTimeNames(nn.Cell):
    """Names built at run time, and distinct literal names."""

    def __init__(self, prefix):
        super().__init__()
        self.a = Parameter(Tensor(1.0), name=f"{prefix}.w")
        self.b = Parameter(Tensor(2.0), name=f"{prefix}.w")
        self.c = Parameter(Tensor(3.0), name="c")
        self.d = Parameter(Tensor(4.0), name="d")

    def construct(self, x):
        return x * self.a + self.b + self.c + self.d


class NotMindSpore(nn.Cell):
    """torch's Parameter is not MindSpore's (a PyTorch port half done: other rules' business)."""

    def __init__(self):
        super().__init__()
        self.a = TorchParameter(Tensor(1.0), name="w")
        self.b = TorchParameter(Tensor(2.0), name="w")

    def construct(self, x):
        return x


class Plain:
    """Not a Cell."""

    def __init__(self):
        self.a = Parameter(Tensor(1.0), name="w")
        self.b = Parameter(Tensor(2.0), name="w")
