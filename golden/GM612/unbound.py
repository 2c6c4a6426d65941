import mindspore
from mindspore import nn, ops


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.blocks = nn.CellList([nn.Dense(4, 4), nn.Dense(4, 4)])

    def construct(self, x, mask=None, scale=True):
        if mask is None:
            y = x * 2
        # the last block's output
        for i in range(2):
            out = self.blocks[i](x)
        if x.ndim == 2:
            a, b = x, x + 1
        elif x.ndim == 3:
            a = x
        for k in (1, 2):
            x = x + k
        return y + out + a + b + x * k

    def helper(self, x):
        if x.shape[0] > 1:
            if x.shape[1] > 1:
                h = x
        return h


class Loops(nn.Cell):
    def construct(self, x, mask):
        total = x
        for step in range(3):
            if step == 0:
                first = x
            total = total + first  # kept from the first pass on the later ones
        i = 0
        while i < 3:
            z = x * i
            i = i + 1
        if mask is not None:
            bias = mask * 2
        x = x + z
        if mask is not None:
            x = x + bias
        return self.helper(total), x

    def helper(self, x):
        return [v for v in x]


class Tensors(nn.Cell):
    def construct(self, x):
        if x.sum() > 0:
            t = x * 2
        n = x.sum() * 0
        while n < 3:
            w = x * n
            n = n + 1
        return t + w


class Complementary(nn.Cell):
    """A second `if` that binds it again, only on some paths, does not bind it before the read."""

    def construct(self, x):
        if x.shape[0] > 1:
            y = x * 2
        if x.shape[0] <= 1:
            y = x
        return y + 1


class LayerDrop(nn.Cell):
    """HuBERT's and wav2vec2's encoders: `layer_outputs` in `if not skip:` and in `if skip:`."""

    def __init__(self):
        super().__init__()
        self.layers = nn.CellList([nn.Dense(4, 4), nn.Dense(4, 4)])

    def construct(self, hidden_states, output_attentions=False):
        all_self_attentions = () if output_attentions else None
        for layer in self.layers:
            skip_the_layer = self.training and hidden_states.sum() > 0
            if not skip_the_layer:
                layer_outputs = (layer(hidden_states), None)
                hidden_states = layer_outputs[0]

            if skip_the_layer:
                layer_outputs = (None, None)

            if output_attentions:
                all_self_attentions = all_self_attentions + (layer_outputs[1],)
        return hidden_states, all_self_attentions


class WalrusBehindAnd(nn.Cell):
    """A walrus after `and` runs only when the left side is true: `m` is not bound on every path."""

    def construct(self, x, mask=None):
        if mask is not None and (m := mask.sum()) > 0:
            x = x * 2
        return x + m
