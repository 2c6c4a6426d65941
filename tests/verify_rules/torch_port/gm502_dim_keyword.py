"""GM502: every DIM_KEYWORDS entry called with torch's `dim=`/`keepdim=` (fails in every mode)."""

import mindspore as ms
from mindspore import Tensor, nn, ops


class EveryEntry(nn.Cell):
    def construct(self, x):
        b = x > 0
        idx = Tensor([0, 2], ms.int32)
        index3 = ops.zeros_like(x[:, :1]).astype(ms.int64)
        src = x[:, :1] * 2
        return (
            ops.softmax(x, dim=1),
            ops.log_softmax(x, dim=1),
            ops.softmin(x, dim=1),
            ops.glu(x[:, :2], dim=1),
            ops.cat([x, x], dim=1),
            ops.concat([x, x], dim=1),
            ops.stack([x, x], dim=1),
            ops.split(x, 1, dim=1),
            ops.chunk(x, 3, dim=1),
            ops.mean(x, dim=1, keepdim=True),
            ops.prod(x, dim=1, keepdim=True),
            ops.all(b, dim=1, keepdim=True),
            ops.any(b, dim=1, keepdim=True),
            ops.max(x, dim=1, keepdim=True),
            ops.min(x, dim=1, keepdim=True),
            ops.amax(x, dim=1, keepdim=True),
            ops.amin(x, dim=1, keepdim=True),
            ops.argmin(x, dim=1, keepdim=True),
            ops.median(x, dim=1, keepdim=True),
            ops.nansum(x, dim=1, keepdim=True),
            ops.nanmean(x, dim=1, keepdim=True),
            ops.vector_norm(x, dim=1, keepdim=True),
            ops.count_nonzero(x, dim=1),
            ops.reduce_sum(x, dim=1),
            ops.reduce_mean(x, dim=1),
            ops.reduce_max(x, dim=1),
            ops.cumsum(x, dim=1),
            ops.cummax(x, dim=1),
            ops.cummin(x, dim=1),
            ops.sort(x, dim=1),
            ops.argsort(x, dim=1),
            ops.diff(x, dim=1),
            ops.squeeze(x[:, :1], dim=1),
            ops.expand_dims(x, dim=1),
            ops.index_select(x, dim=1, index=idx),
            ops.narrow(x, dim=1, start=0, length=2),
            ops.repeat_interleave(x, 2, dim=1),
            ops.scatter(x, dim=1, index=index3, src=src),
            ops.renorm(x, 2, dim=1, maxnorm=1.0),
            ops.gather(x, idx, dim=1),
            ops.std(x, dim=1, keepdim=True),
            ops.var(x, dim=-1),
        )
