"""Set displays and comprehensions in graph code: `set(...)` of a tuple or a list comprehension, a tuple
on the right of `in` / `not in`. The forms of mindnlp's reformer and gpt_neo, then look-alikes."""
import mindspore
from mindspore import nn


def _least_common_chunk(config):
    attn_types_set = set(config.attn_layers)  # a call: compiles, left alone
    if len(attn_types_set) == 2 and attn_types_set == {"lsh", "local"}:
        return 2
    return 1


class Forms(nn.Cell):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.kinds = ["lsh", "local"]

    def construct(self, x, labels):
        chunk = _least_common_chunk(self.config)
        if labels.dtype in {mindspore.int64, mindspore.int32}:
            x = x * 2
        if labels.dtype not in {mindspore.float32}:
            x = x + 1
        unique = {k.upper() for k in self.kinds}  # a comprehension
        extra = ({*self.kinds, "none"})  # starred, parenthesized
        one = {"lsh"}
        same = {"lsh", "local"} == set(self.kinds)
        lookup = {"a": 1}  # a dict display, not a set
        return x * chunk * len(unique) * len(extra) * len(one) * same * lookup["a"]


class Shadowed(nn.Cell):
    def construct(self, x, set):
        return x * len({1, 2})  # `set` is the parameter here: reported, not fixed


def outside(values):
    return {v for v in values}  # not graph code
