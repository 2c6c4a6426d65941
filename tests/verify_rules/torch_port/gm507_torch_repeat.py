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
