import mindspore
import torch
import torch.nn.functional as F
from mindspore import nn, ops


class Block(nn.Cell):
    def construct(self, q, k, v, x):
        scores = ops.softmax(ops.matmul(q, k), axis=-1)
        out = ops.cat([scores, v], axis=1)
        gathered = ops.gather_elements(x, 1, ops.zeros_like(x).long())
        swapped = ops.swapaxes(x, 1, 2)
        flat = ops.flatten(x, start_dim=1)
        flat_all = ops.flatten(x, start_dim=0)
        zeros = ops.zeros((2, 3), dtype=mindspore.float32)
        ones = ops.ones(x.shape)
        mean = ops.mean(x, axis=1, keep_dims=True)
        act = ops.relu(x) + ops.softmax(x, axis=1)
        return out, gathered, swapped, flat, flat_all, zeros, ones, mean, act


class NotMapped(nn.Cell):
    def construct(self, x, n):
        a = torch.cdist(x, x)
        b = torch.zeros(n)
        c = torch.mean(x, 1, True, dtype=mindspore.float16)
        if isinstance(x, torch.Tensor):
            return a
        return b, c


def convert_weights(path):
    return torch.load(path)  # weight conversion: not graph code
