import mindspore.numpy as mnp
from mindspore import nn, ops


class Masked(nn.Cell):
    def construct(self, scores, mask, limit):
        h = ops.relu(scores)
        zeroed = ops.where(h > 1, h, 0.0)  # a Python float branch: the dtype may change (float16)
        picked = ops.where(limit > 0, h, zeroed)  # `limit` may be a Python number: a bool, not a tensor
        return ops.where(mask, picked, h)  # a condition that may not be bool
