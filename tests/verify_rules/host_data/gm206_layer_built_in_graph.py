"""GM206: a layer with Parameters built in construct (mindocr's MultiAspectGCAttention builds its
`nn.LayerNorm` from the input's height and width): export fails."""

from mindspore import nn, ops


class ConcatNorm(nn.Cell):
    def __init__(self, channels=3):
        super().__init__()
        self.channels = channels
        self.conv = nn.Conv2d(channels, channels, 1, has_bias=True)

    def construct(self, x):
        out = self.conv(x)
        _, _, h, w = out.shape
        # out = F.layer_norm(out, [self.channels, h, w])
        layer_norm = nn.LayerNorm([self.channels, h, w], begin_norm_axis=1, begin_params_axis=1)
        out = layer_norm(out)
        return ops.relu(out)

