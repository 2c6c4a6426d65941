# Loops over Python lists, CellLists, config counts and shape tuples have a constant trip count.
import mindspore as ms
from mindspore import nn, ops


class FPN(nn.Cell):
    def __init__(self, num_levels=3):
        super().__init__()
        self.num_levels = num_levels
        self.lateral = nn.CellList([nn.Conv2d(4, 4, 1) for _ in range(num_levels)])

    def construct(self, feats):
        outs = ()
        for i in range(len(feats)):  # a list of feature maps
            outs += (self.lateral[i](feats[i]),)
        for layer in self.lateral:
            outs += (layer(feats[0]),)
        for i in range(self.num_levels):
            outs += (feats[i] * 2,)
        for f in feats[1:]:
            outs += (f,)
        sizes = [d * 2 for d in feats[0].shape[2:]]
        for k, size in enumerate(feats[0].shape):
            outs += (feats[0] * size,)
        for a, b in zip(feats, self.lateral):
            outs += (b(a),)
        return outs, sizes


class NotACell:
    def construct(self, x):
        return [r * 2 for r in range(x.shape[0])]


class ControlNet(nn.Cell):
    """zip() stops at its shortest argument: a list of residuals bounds the loop, not the tensor."""

    def construct(self, down_block_res_samples):
        scales = ops.logspace(-1, 0, len(down_block_res_samples) + 1)
        out = ()
        for sample, scale in zip(down_block_res_samples, scales):
            out += (sample * scale,)
        return out


class SegformerHead(nn.Cell):
    """A parameter annotated `Tensor` that a loop walks is often a list of feature maps in ported code:
    not reported (a real tensor walked this way is missed, on purpose)."""

    def __init__(self, linear_c):
        super().__init__()
        self.linear_c = linear_c

    def construct(self, encoder_hidden_states: ms.Tensor):
        all_hidden_states = ()
        for encoder_hidden_state in encoder_hidden_states:
            all_hidden_states += (encoder_hidden_state * 2,)
        return all_hidden_states
