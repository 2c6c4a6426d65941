"""With --unsafe-fixes: what construct reads of the Parameters is computed once, at the end of __init__."""

import mindspore
from mindspore import nn, ops


class Regularised(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)
        self._get_parameters = mindspore.ParameterTuple(self.get_parameters())
        self._len_trainable_params = len(self.trainable_params())
        self._trainable_params = mindspore.ParameterTuple(self.trainable_params())

    def construct(self, x):
        n = self._len_trainable_params
        y = self.dense(x) * n
        for p in self._get_parameters:  # the Parameters themselves: a ParameterTuple
            y = y + p.sum()
        names = self.dense.parameters_dict()  # a dict: reported, no fix
        return y + self.penalty() + len(names) + self._len_trainable_params

    def penalty(self):
        return sum(p.sum() for p in self._trainable_params)


class PortedAttention(nn.Cell):
    """A Hugging Face port: torch's `next(self.parameters())`, in a class with an `__init__` of its own."""

    def __init__(self, config):
        super().__init__()
        self.query = nn.Dense(config.hidden, config.hidden)
        self.post_init()
        self._first_parameter_dtype = next(self.get_parameters()).dtype

    def construct(self, x, head_mask):
        return self.query(x) * head_mask.to(dtype=self._first_parameter_dtype)


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
