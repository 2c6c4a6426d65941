"""x.repeat(k, 2) where the source fixes x's rank at 3 or more: a tile of two sizes raises there, so the
element repeat is the fix, a safe one. Every other Cell here leaves the rank open: the fix stays unsafe."""

from mindspore import nn, ops


class Conv1dOrthogonal(nn.Conv1d):
    def __init__(self, *args, **kwargs):
        kwargs["has_bias"] = True
        super().__init__(*args, **kwargs)


class Reshaped(nn.Conv1d):
    def construct(self, x):
        return super().construct(x).reshape(-1)


class UBlock(nn.Cell):
    """mindaudio's WaveGrad: the input goes through a Conv1d first, so it is 3-D past that line."""

    def __init__(self, channels, factor):
        super().__init__()
        self.factor = factor
        self.block1 = Conv1dOrthogonal(channels, channels, 1)
        self.leaky_relu = nn.LeakyReLU(0.2)
        self.conv2d = nn.Conv2d(channels, channels, 1)

    def construct(self, x, image):
        block1 = self.block1(x)
        block1 = ops.repeat_interleave(block1, self.factor, 2) / self.factor
        block2 = self.leaky_relu(x)
        block2 = ops.repeat_interleave(block2, self.factor, 2) / self.factor
        pixels = ops.repeat_interleave(self.conv2d(image), self.factor, 3)
        return block1 + block2, pixels


class Unknown(nn.Cell):
    def __init__(self, channels, factor):
        super().__init__()
        self.factor = factor
        self.dense = nn.Dense(channels, channels)
        self.conv = nn.Conv1d(channels, channels, 1)
        self.reshaped = Reshaped(channels, channels, 1)

    def construct(self, x, y, z, flag):
        dense = self.dense(x).repeat(self.factor, 2)  # a Dense keeps any rank
        late = y.repeat(self.factor, 2)  # y meets the Conv1d only after
        out = self.conv(y)
        if flag:
            z = z[0]
        z_out = self.conv(z)
        rebound = z.repeat(self.factor, 2)  # z may be rebound in the branch
        reshaped = self.reshaped(x).repeat(self.factor, 2)  # its construct returns another rank
        for _ in range(2):
            out = out.repeat(self.factor, 2)  # rebound in the loop itself
        return dense, late, out, z_out, rebound, reshaped


class Shadowed(nn.Cell):
    def __init__(self, channels, factor):
        super().__init__()
        self.factor = factor
        self.conv = nn.Conv1d(channels, channels, 1)

    def construct(self, x):
        out = self.conv(x)
        scale = lambda x: x.repeat(self.factor, 2)  # this x is the lambda's own
        return out, scale(x[0])
