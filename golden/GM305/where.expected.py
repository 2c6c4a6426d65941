import mindspore
import mindspore.numpy as np
from mindspore import nn, ops


class Margin(nn.Cell):
    def __init__(self, th=0.5, mm=0.1):
        super().__init__()
        self.th, self.mm = th, mm

    def construct(self, cosine):
        phi = ops.cos(cosine) * 0.9
        # as in mindaudio's AdditiveAngularMargin
        phi = ops.where(phi > self.th, phi, phi - self.mm)
        both = ops.where(phi <= 0, phi * 2, phi)  # spelled in full
        return ops.where(
            both != 1,  # keeps its comment
            both,
            phi,
        )
