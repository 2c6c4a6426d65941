import mindspore.numpy as mnp
from mindspore import nn, ops


class Masked(nn.Cell):
    def construct(self, scores, mask, limit):
        h = ops.relu(scores)
        zeroed = mnp.where(h > 1, h, 0.0)  # a Python float branch: the dtype may change (float16)
        picked = mnp.where(limit > 0, h, zeroed)  # `limit` may be a Python number: a bool, not a tensor
        return mnp.where(mask, picked, h)  # a condition that may not be bool


class NotCertainlyBool(nn.Cell):
    def construct(self, scores, mask):
        tiled = ops.tile(mask, (1, 2))  # moves the items of `mask`, which may not be bool
        if scores.shape[0] > 1:
            tiled = scores  # a float tensor on this path
        return mnp.where(tiled, scores, scores * 2)
