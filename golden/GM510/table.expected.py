"""Every TORCH_FUNCTIONS entry of codemods/rules/_torch_table.py, as a half-done port calls it."""

import mindspore
import torch
import torch.nn.functional as F
from mindspore import nn, ops


class EveryEntry(nn.Cell):
    """One call per entry of TORCH_FUNCTIONS (codemods/rules/_torch_table.py)."""

    def construct(self, x):
        pos = ops.abs(x) + 1.0
        b = x > 0
        unary = (
            ops.exp(x), ops.log(pos), ops.log1p(pos), ops.rsqrt(pos), ops.sigmoid(x),
            ops.tanh(x), ops.sin(x), ops.cos(x), ops.floor(x), ops.ceil(x), ops.sign(x),
            ops.neg(x), ops.reciprocal(pos), ops.erf(x), ops.square(x), ops.isnan(x),
            ops.isinf(x), ops.logical_not(b), ops.sqrt(pos), ops.relu(x),
        )
        binary = (
            ops.maximum(x, pos), ops.minimum(x, pos), ops.logical_and(b, b), ops.logical_or(b, b),
            ops.matmul(x, x), ops.bmm(x[0], x[0]), ops.where(b, x, pos), ops.clamp(x, -0.5, 0.5),
        )
        shapes = (
            ops.cat([x, x], axis=1), ops.concat([x, x], 1), ops.stack([x, x], axis=1),
            ops.split(x, 1, axis=1), ops.chunk(x, 3, axis=1), ops.squeeze(x[:, :1], axis=1),
            ops.unsqueeze(x, 1), ops.swapaxes(x, 2, 3), ops.permute(x, (0, 2, 3, 1)),
            ops.flatten(x, start_dim=1), ops.flatten(x, start_dim=0), ops.zeros((2, 3)), ops.ones((2, 3)),
            ops.zeros_like(x), ops.ones_like(x),
        )
        reductions = (
            ops.softmax(x, axis=-1), ops.log_softmax(x, axis=-1), ops.sum(x, dim=1, keepdim=True),
            ops.mean(x, axis=1, keep_dims=True), ops.cumsum(x, axis=1), ops.topk(x, 2, dim=-1),
            ops.gather_elements(x, 1, ops.zeros_like(x).astype(mindspore.int64)),
        )
        functional = (ops.relu(x), ops.sigmoid(x), ops.silu(x), ops.softmax(x, axis=1), ops.log_softmax(x, axis=1))
        return unary, binary, shapes, reductions, functional
