"""Sizes unpacked with `*` (mindnlp's LLaVA-NeXT image newline) and sizes in a Python list: one tuple each."""
from mindspore import nn, ops


class Newline(nn.Cell):
    def construct(self, image_feature, image_newline):
        shape = [image_feature.shape[0], 1, 1]
        return (
            ops.broadcast_to(image_newline[:, None, None], (*image_feature.shape[:-1], 1)),
            ops.broadcast_to(image_newline, tuple(shape)),
            ops.broadcast_to(image_newline, (*shape,)),
        )
