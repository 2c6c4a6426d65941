import mindspore as ms
import mindspore.numpy as mnp
from mindspore import nn, ops


class Assigner(nn.Cell):
    """mindyolo's TaskAlignedAssigner: the helper's mask is a bool at its one call."""

    def construct(self, metrics, mask_gt):
        mask = self.select(metrics, topk_mask=ops.cast(ops.tile(mask_gt[..., None], (1, 1, 3)), ms.bool_))
        picked = self.pick(metrics, metrics.max(-1, keepdims=True) > 0.5)
        return picked + mask + masked(metrics, ops.logical_not(mask_gt > 0))

    def select(self, metrics, topk_mask=None):
        topk_metrics, topk_idxs = ops.top_k(metrics, 3)
        if topk_mask is None:
            topk_mask = ops.tile(topk_metrics.max(-1, keepdims=True) > 0.5, (1, 1, 3))
        return ops.where(topk_mask, topk_idxs, ops.zeros_like(topk_idxs))

    def pick(self, scores, mask):
        scores = ops.relu(scores)
        return mnp.where(mask, scores, ops.zeros_like(scores))  # positional, numpy's `.max` overload: a bool


class NotCertainlyBool(nn.Cell):
    def construct(self, scores, weights):
        a = self.float_mask(scores, weights)  # a float tensor: mnp.where tests it for nonzero
        b = self.left_default(scores, scores > 0) + self.left_default(scores)  # one call keeps the default
        c = self.torch_max(scores, scores.max(-1) > 0)  # the torch overload: a pair in PyNative
        return a + b + c + self.shared(scores, scores > 0)

    def float_mask(self, scores, mask):
        return mnp.where(mask, scores, ops.zeros_like(scores))

    def left_default(self, scores, mask=None):
        return mnp.where(mask, scores, ops.zeros_like(scores))

    def torch_max(self, scores, mask):
        return mnp.where(mask, scores, ops.zeros_like(scores))

    def shared(self, scores, mask):
        return mnp.where(mask, scores, ops.zeros_like(scores))

    def reset(self, scores):
        return self.shared(scores, scores.sum())  # not graph code: a call graphmend cannot weigh


def masked(scores, mask):
    scores = ops.relu(scores)
    return ops.where(mask, scores, ops.zeros_like(scores))  # a module function: its one call passes a bool


class OtherReceiver(nn.Cell):
    def construct(self, scores, helper):
        mask = helper.pick(scores, scores > 0)  # another object's `pick`: graphmend cannot tell it apart
        return self.pick(scores, scores > 0) + mask

    def pick(self, scores, mask):
        scores = ops.relu(scores)
        return mnp.where(mask, scores, ops.zeros_like(scores))
