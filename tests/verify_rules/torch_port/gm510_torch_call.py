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


class EveryEntry(nn.Cell):
    """One call per entry of TORCH_FUNCTIONS (codemods/rules/_torch_table.py)."""

    def construct(self, x):
        pos = torch.abs(x) + 1.0
        b = x > 0
        unary = (
            torch.exp(x),
            torch.log(pos),
            torch.log1p(pos),
            torch.rsqrt(pos),
            torch.sigmoid(x),
            torch.tanh(x),
            torch.sin(x),
            torch.cos(x),
            torch.floor(x),
            torch.ceil(x),
            torch.sign(x),
            torch.neg(x),
            torch.reciprocal(pos),
            torch.erf(x),
            torch.square(x),
            torch.isnan(x),
            torch.isinf(x),
            torch.logical_not(b),
            torch.sqrt(pos),
            torch.relu(x),
        )
        binary = (
            torch.maximum(x, pos),
            torch.minimum(x, pos),
            torch.logical_and(b, b),
            torch.logical_or(b, b),
            torch.matmul(x, x),
            torch.bmm(x[0], x[0]),
            torch.where(b, x, pos),
            torch.clamp(x, -0.5, 0.5),
        )
        shapes = (
            torch.cat([x, x], dim=1),
            torch.concat([x, x], 1),
            torch.stack([x, x], dim=1),
            torch.split(x, 1, dim=1),
            torch.chunk(x, 3, dim=1),
            torch.squeeze(x[:, :1], dim=1),
            torch.unsqueeze(x, 1),
            torch.transpose(x, 2, 3),
            torch.permute(x, (0, 2, 3, 1)),
            torch.flatten(x, 1),
            torch.flatten(x),
            torch.zeros(2, 3),
            torch.ones((2, 3)),
            torch.zeros_like(x),
            torch.ones_like(x),
        )
        reductions = (
            torch.softmax(x, dim=-1),
            torch.log_softmax(x, dim=-1),
            torch.sum(x, dim=1, keepdim=True),
            torch.mean(x, dim=1, keepdim=True),
            torch.cumsum(x, dim=1),
            torch.topk(x, 2, dim=-1),
            torch.gather(x, 1, torch.zeros_like(x).astype(torch.int64)),
        )
        functional = (F.relu(x), F.sigmoid(x), F.silu(x), F.softmax(x, dim=1), F.log_softmax(x, dim=1))
        return unary, binary, shapes, reductions, functional
