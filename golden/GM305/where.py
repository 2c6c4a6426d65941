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
        phi = np.where(phi > self.th, phi, phi - self.mm)
        both = mindspore.numpy.where(phi <= 0, phi * 2, phi)  # spelled in full
        return np.where(
            both != 1,  # keeps its comment
            both,
            phi,
        )


class Assigner(nn.Cell):
    """Conditions that are bool tensors without being comparisons (mindyolo's YOLOv8 assigner)."""

    def construct(self, scores, overlaps, mask_pos, valid):
        n_gt = mask_pos.shape[1]
        fg_mask = ops.relu(scores).sum(-2)
        overlaps, mask_pos = ops.relu(overlaps), ops.relu(mask_pos)
        mask_multi_gts = ops.tile(ops.expand_dims(fg_mask > 1, 1), (1, n_gt, 1))
        mask_pos = np.where(mask_multi_gts, overlaps, mask_pos)
        keep = ops.cast(valid, mindspore.bool_)
        mask_pos = np.where(keep & (overlaps > 0), mask_pos, overlaps)
        return np.where(ops.logical_not(keep), mask_pos, overlaps), np.where(keep[:, None], mask_pos, overlaps)
