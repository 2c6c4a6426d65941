import torch
import torch.nn.functional as F
from mindspore import nn


class Block(nn.Cell):
    def construct(self, q, k, v, x):
        scores = torch.softmax(torch.matmul(q, k), dim=-1)
        out = torch.cat([scores, v], dim=1)
        gathered = torch.gather(x, 1, torch.zeros_like(x).long())
        swapped = torch.transpose(x, 1, 2)
        flat = torch.flatten(x, 1)
        flat_all = torch.flatten(x)
        zeros = torch.zeros(2, 3, dtype=torch.float32)
        ones = torch.ones(x.shape)
        mean = torch.mean(x, dim=1, keepdim=True)
        act = F.relu(x) + F.softmax(x, dim=1)
        return out, gathered, swapped, flat, flat_all, zeros, ones, mean, act


class NotMapped(nn.Cell):
    def construct(self, x, n):
        a = torch.cdist(x, x)
        b = torch.zeros(n)
        c = torch.mean(x, 1, True, dtype=torch.float16)
        if isinstance(x, torch.Tensor):
            return a
        return b, c


def convert_weights(path):
    return torch.load(path)  # weight conversion: not graph code
