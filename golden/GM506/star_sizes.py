"""Sizes unpacked with `*` (mindnlp's LLaVA-NeXT image newline) and sizes in a Python list: one tuple each."""
from mindspore import nn


class Newline(nn.Cell):
    def construct(self, image_feature, image_newline):
        shape = [image_feature.shape[0], 1, 1]
        return (
            image_newline[:, None, None].expand(*image_feature.shape[:-1], 1),
            image_newline.expand(shape),
            image_newline.expand(*shape),
        )
