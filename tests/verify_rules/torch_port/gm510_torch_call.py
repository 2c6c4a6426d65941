"""GM510: torch calls left in construct (torch is not even installed here: every mode fails)."""

from mindspore import nn

try:
    import torch
    import torch.nn.functional as F
except ImportError:  # the port's environment: MindSpore only
    torch = F = None


class Block(nn.Cell):
    def construct(self, x):
        scores = torch.softmax(torch.matmul(x, torch.transpose(x, 2, 3)), dim=-1)
        out = torch.cat([scores, x], dim=1)
        flat = torch.flatten(x, 1) + torch.flatten(x).sum()
        zeros = torch.zeros(2, 3, dtype=torch.float32)
        mean = torch.mean(x, dim=1, keepdim=True)
        act = F.relu(x) + F.softmax(x, dim=1)
        gathered = torch.gather(x, 1, torch.zeros_like(x).astype(torch.int64))
        return out, flat, zeros, mean, act, gathered
