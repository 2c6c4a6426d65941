import mindspore.numpy as mnp
from mindspore import nn, ops


class Masked(nn.Cell):
    def construct(self, scores, mask, limit):
        h = ops.relu(scores)
        zeroed = mnp.where(h > 1, h, 0.0)  # a Python float branch: the dtype may change (float16)
        picked = mnp.where(limit > 0, h, zeroed)  # `limit` may be a Python number: a bool, not a tensor
        return mnp.where(mask, picked, h)  # a condition that may not be bool
