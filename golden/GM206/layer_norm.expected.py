import mindspore as ms
from mindspore import nn, ops


class MultiAspect(nn.Cell):
    """mindocr's MultiAspectGCAttention: the norm's shape comes from the input."""

    def __init__(self, inplanes):
        super().__init__()
        self.inplanes = inplanes
        self.cat_conv = nn.Conv2d(2 * inplanes, inplanes, kernel_size=1)

    def construct(self, x, context):
        N, C2, H, W = x.shape
        out = ops.concat([x, context.expand([-1, -1, H, W])], axis=1)
        out = self.cat_conv(out)
        # out = F.layer_norm(out, [self.inplanes, H, W])
        out = ops.LayerNorm(begin_norm_axis=1, begin_params_axis=1, epsilon=1e-7)(out, ops.ones([self.inplanes, H, W], out.dtype), ops.zeros([self.inplanes, H, W], out.dtype))[0]
        out = ops.relu(out)
        return out


class Direct(nn.Cell):
    def construct(self, x):
        y = ops.LayerNorm(begin_norm_axis=-1, begin_params_axis=-1, epsilon=1e-5)(x, ops.ones((x.shape[-1],), x.dtype), ops.zeros((x.shape[-1],), x.dtype))[0]
        return y * 2
