"""GM507: torch's `repeat` (no CPU kernel: fails in every mode on CPU)."""

from mindspore import nn


class Tiles(nn.Cell):
    def construct(self, x):
        rows = x.repeat(1, 2, 1, 1)
        more = x.repeat((2, 1, 1, 1, 1))
        flat = x.reshape(-1).repeat(3)
        return rows, more, flat


class ElementRepeat(nn.Cell):
    """MindSpore 1.x's `x.repeat(k, 0)`: each row k times (mindaudio's FastSpeech2 LengthRegulator)."""

    def construct(self, x):
        return x.repeat(2, 0) * 2


class UpsampleByRepeat(nn.Cell):
    """mindaudio's WaveGrad UBlock (MindSpore 1.9): `x.repeat(self.factor, 2)`, each step factor times along axis 2."""

    def __init__(self, factor=2):
        super().__init__()
        self.factor = factor

    def construct(self, x):
        return x.repeat(self.factor, 2) / self.factor


class UpsampleAfterConv(nn.Cell):
    """WaveGrad's UBlock as written: the input meets a Conv1d first, so the tensors are 3-D and GM507's fix of
    `x.repeat(self.factor, 2)` is safe."""

    def __init__(self, factor=2):
        super().__init__()
        self.factor = factor
        self.conv = nn.Conv1d(3, 3, 1, has_bias=True)
        self.leaky_relu = nn.LeakyReLU(0.2)

    def construct(self, x):
        block1 = self.conv(x)
        block1 = block1.repeat(self.factor, 2) / self.factor
        block2 = self.leaky_relu(x)
        block2 = block2.repeat(self.factor, 2) / self.factor
        return block1 + block2
