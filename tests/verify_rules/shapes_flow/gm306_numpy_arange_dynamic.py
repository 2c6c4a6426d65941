"""GM306: `mindspore.numpy.arange` of a batch size in construct (the task-aligned assigner of mindyolo's and
mindocr's YOLOv8 loss, which gathers by `(batch, label)` index pairs): a dynamic batch fails."""

import mindspore as ms
import mindspore.numpy as mnp
from mindspore import nn, ops


class GatherByLabel(nn.Cell):
    def construct(self, scores, labels):
        bs, n_gt, _ = labels.shape
        ind0 = ops.tile(mnp.arange(bs, dtype=ms.int32).view(-1, 1), (1, n_gt)).view(-1, 1)
        ind1 = ops.cast(labels, ms.int32).squeeze(-1).view(-1, 1)
        picked = ops.gather_nd(scores.transpose((0, 2, 1)), ops.concat((ind0, ind1), axis=1))
        batch_ind = mnp.arange(bs)[:, None]
        offsets = (batch_ind * scores.shape[1]).astype(scores.dtype)
        steps = mnp.arange(0, scores.shape[1], 2)
        centers = mnp.arange(0.5, bs, dtype=scores.dtype) + mnp.arange(bs * 1.0)
        return picked.view(bs, n_gt, -1) + offsets[:, :, None], steps, centers
