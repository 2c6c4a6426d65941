"""`mindspore.numpy.arange` of a tensor's dimension in graph code, under the names a file reaches it by."""
import mindspore as ms
import mindspore.numpy as mnp
from mindspore import nn, ops
from mindspore import numpy as msnp


class Assigner(nn.Cell):
    def construct(self, scores, labels):
        bs, n_gt, _ = labels.shape
        ind0 = ops.tile(ops.arange(bs, dtype=ms.int32).view(-1, 1), (1, n_gt))  # the dtype kept
        batch_ind = ops.arange(bs, dtype=ms.int32)[:, None]  # ints: int32 written out
        steps = ops.arange(0, scores.shape[1], 2, dtype=ms.int32)
        half = ops.arange(0.5, scores.shape[2], dtype=ms.float32)  # a float bound: float32
        named = ops.arange(start=1, end=scores.shape[1] + 1, dtype=ms.int32)
        return ind0, batch_ind, steps, half, named
