"""GM614: two Parameters of one Cell with the same literal name (mindone's RecurrentGemma gates)."""

import mindspore as ms
from mindspore import Parameter, Tensor, nn


class Gates(nn.Cell):
    def __init__(self):
        super().__init__()
        self.input_gate_weight = Parameter(Tensor([0.5, 1.0, 1.5, 2.0], ms.float32), name="weight")
        self.recurrent_gate_weight = Parameter(Tensor([2.0, 3.0, 4.0, 5.0], ms.float32), name="weight")

    def construct(self, x):
        return x * self.input_gate_weight + self.recurrent_gate_weight
