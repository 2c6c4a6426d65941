"""One call per entry of DIM_KEYWORDS (codemods/rules/_torch_table.py), each with torch's keywords."""

import mindspore as ms
from mindspore import nn, ops


class EveryEntry(nn.Cell):
    def construct(self, x, b, idx, src, index3):
        outs = (
            ops.softmax(x, axis=1),
            ops.log_softmax(x, axis=1),
            ops.softmin(x, axis=1),
            ops.glu(x[:, :2], axis=1),
            ops.cat([x, x], axis=1),
            ops.concat([x, x], axis=1),
            ops.stack([x, x], axis=1),
            ops.split(x, 1, axis=1),
            ops.chunk(x, 3, axis=1),
            ops.mean(x, axis=1, keep_dims=True),
            ops.prod(x, axis=1, keep_dims=True),
            ops.all(b, axis=1, keep_dims=True),
            ops.any(b, axis=1, keep_dims=True),
            ops.max(x, axis=1, keepdims=True),
            ops.min(x, axis=1, keepdims=True),
            ops.amax(x, axis=1, keepdims=True),
            ops.amin(x, axis=1, keepdims=True),
            ops.argmin(x, axis=1, keepdims=True),
            ops.median(x, axis=1, keepdims=True),
            ops.nansum(x, axis=1, keepdims=True),
            ops.nanmean(x, axis=1, keepdims=True),
            ops.vector_norm(x, axis=1, keepdims=True),
            ops.count_nonzero(x, axis=1),
            ops.reduce_sum(x, axis=1),
            ops.reduce_mean(x, axis=1),
            ops.reduce_max(x, axis=1),
            ops.cumsum(x, axis=1),
            ops.cummax(x, axis=1),
            ops.cummin(x, axis=1),
            ops.sort(x, axis=1),
            ops.argsort(x, axis=1),
            ops.diff(x, axis=1),
            ops.squeeze(x[:, :1], axis=1),
            ops.expand_dims(x, axis=1),
            ops.index_select(x, axis=1, index=idx),
            ops.narrow(x, axis=1, start=0, length=2),
            ops.repeat_interleave(x, 2, axis=1),
            ops.scatter(x, axis=1, index=index3, src=src),
            ops.renorm(x, 2, axis=1, maxnorm=1.0),
            ops.gather(x, idx, axis=1),
        )
        return outs
