"""A Cell whose returned tuple holds `None` (an attention without a cache: Jamba's Mamba mixer, LongT5's and
chatglm2's attention in bench/realcells). Compiled as the top graph under STRICT (and so in MindIR export),
MindSpore 2.10 drops the `None` from the outputs and the later ones move up; inside a graph it stays."""

from mindspore import nn


class ReturnsNone(nn.Cell):
    def construct(self, x):
        return x * 2, None, x + 1


class CallsIt(nn.Cell):
    """The same Cell one graph down: its caller sees the `None` at its place."""

    def __init__(self):
        super().__init__()
        self.inner = ReturnsNone()

    def construct(self, x):
        doubled, cache, shifted = self.inner(x)
        return doubled - shifted if cache is None else doubled
