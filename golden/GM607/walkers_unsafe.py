"""With --unsafe-fixes: what construct reads of the Parameters is computed once, at the end of __init__."""

from mindspore import nn, ops


class Regularised(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)

    def construct(self, x):
        n = len(self.trainable_params())
        y = self.dense(x) * n
        for p in self.get_parameters():  # the Parameters themselves: a ParameterTuple
            y = y + p.sum()
        names = self.dense.parameters_dict()  # a dict: reported, no fix
        return y + self.penalty() + len(names) + len(self.trainable_params())

    def penalty(self):
        return sum(p.sum() for p in self.trainable_params())


class PortedAttention(nn.Cell):
    """A Hugging Face port: torch's `next(self.parameters())`, in a class with an `__init__` of its own."""

    def __init__(self, config):
        super().__init__()
        self.query = nn.Dense(config.hidden, config.hidden)
        self.post_init()

    def construct(self, x, head_mask):
        return self.query(x) * head_mask.to(dtype=next(self.parameters()).dtype)


class EarlyReturn(nn.Cell):
    def __init__(self, frozen):
        super().__init__()
        self.dense = nn.Dense(4, 4)
        if frozen:
            return
        self.extra = nn.Dense(4, 4)

    def construct(self, x):
        return self.dense(x) * len(self.trainable_params())  # __init__ returns early: reported, no fix


class ArgumentOfTheGraph(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)

    def construct(self, x, expand):
        return self.dense(x) * len(list(self.get_parameters(expand=expand)))  # a local in the call: no fix
