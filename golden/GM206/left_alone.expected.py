from mindspore import nn, ops

from .layers import LayerNorm


class Reported(nn.Cell):
    def construct(self, x, labels):
        a = nn.LayerNorm([4], gamma_init="normal")(x)  # a drawn gamma: not the ones the fix would write
        norm = nn.LayerNorm([4])
        b = norm(x) + norm(a)  # used twice
        c = nn.LayerNorm([4])(self.proj(x))  # the input is computed in the call
        d = nn.Dense(4, 4)(x)  # new random weights on every call: build it in __init__
        return a + b + c + d


class LeftAlone(nn.Cell):
    def __init__(self):
        super().__init__()
        self.norm = nn.LayerNorm([4])  # built once, in __init__
        self.loss = nn.CrossEntropyLoss()

    def construct(self, x, labels):
        loss_fct = nn.CrossEntropyLoss()  # no Parameters: every check passes (measured)
        probs = nn.Softmax(axis=-1)(x)
        mine = LayerNorm([4])(x)  # the package's own LayerNorm, not mindspore.nn's
        return loss_fct(x, labels) + probs + mine + self.norm(x)


def not_graph_code(x):
    return nn.LayerNorm([4])(x)
