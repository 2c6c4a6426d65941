"""GM606's fix of set displays and comprehensions: the forms of mindnlp's reformer (`attn_types_set ==
{"lsh", "local"}` in a helper construct calls) and gpt_neo (`labels.dtype in {int64, int32}`), and more."""

import mindspore as ms
from mindspore import nn


def _least_common_chunk(kinds):
    kinds_set = set(kinds)
    if len(kinds_set) == 2 and kinds_set == {"lsh", "local"}:
        return 2
    return 1


def _sizes(kinds):
    unique = {k.upper() for k in kinds}
    extra = {*kinds, "none"}
    one = {"lsh"}
    return len(unique) + len(extra) * 10 + len(one) * 100


class SetForms(nn.Cell):
    def __init__(self):
        super().__init__()
        self.kinds = ["lsh", "local", "lsh"]

    def construct(self, x):
        y = x * _least_common_chunk(self.kinds) + _sizes(self.kinds)
        if x.dtype in {ms.float32, ms.float16}:
            y = y * 2
        if x.dtype not in {ms.int32, ms.int64}:
            y = y + 1
        return y
