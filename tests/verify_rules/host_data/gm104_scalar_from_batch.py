"""GM104 as mindone 0.5.0 writes it (diffusers/models/unets/unet_1d_blocks.py, SelfAttention1d): a scale
computed from a tensor built from a dimension, then taken back to a Python float. With a dynamic batch it
fails even under LAX ("Cannot join the return values of different branches", measured on 2.10, and on
the real Cell in bench/realcells); `ops.scalar_to_tensor` runs in every configuration."""

import mindspore as ms
from mindspore import mint, nn


class Scaled(nn.Cell):
    def construct(self, x):
        scale = float(1 / mint.sqrt(mint.sqrt(ms.tensor(x.shape[0], dtype=ms.float64))))
        return x * scale
