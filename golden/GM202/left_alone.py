# Attributes outside graph code, Parameters, and Cells with a base from another file.
from mindspore import Parameter, Tensor, nn

from .base import PreTrainedModel


class Tracker:
    def __init__(self):
        self.count = 0

    def construct(self, x):
        self.count = self.count + 1
        return x


class Model(PreTrainedModel):
    def __init__(self, config):
        super().__init__(config)
        self.cache = None

    def construct(self, x):
        self.cache = x  # the base class may declare it as a Parameter
        return x


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scale = Parameter(Tensor(1.0))

    def construct(self, x):
        self.scale = self.scale * 0.5
        return x * self.scale

    def reset(self):
        self.flag = True
