from mindspore import nn, ops


class Regularised(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)

    def construct(self, x):
        n = len(self.trainable_params())
        y = self.dense(x) * n
        for p in self.get_parameters():
            y = y + p.sum()
        names = self.dense.parameters_dict()
        return y + self.penalty() + len(names)

    def penalty(self):
        return sum(p.sum() for p in self.trainable_params())


class PortedAttention(nn.Cell):
    """A Hugging Face port: torch's `next(self.parameters())`."""

    def construct(self, x, head_mask):
        return x * head_mask.to(dtype=next(self.parameters()).dtype)
