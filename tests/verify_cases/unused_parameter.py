"""A Cell with a Parameter its graph never reads (a buffer of another input path, as LayoutLMv3's text
embeddings keep `position_ids` for the path that takes token ids): MindIR export leaves it out."""

import numpy as np
from mindspore import Parameter, Tensor, nn, ops


class OtherPathBuffer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scale = Parameter(Tensor(np.full((3,), 2.0, np.float32)), name="scale")
        self.position_ids = Parameter(Tensor(np.arange(8, dtype=np.int32)), name="position_ids", requires_grad=False)

    def construct(self, x, ids=None):
        if ids is not None:
            x = x + self.position_ids[: x.shape[1]].astype(x.dtype)
        return x * self.scale


class CountsCalls(nn.Cell):
    """Updates a Parameter that the rewrite below (unused_parameter_dropped.py) stops updating."""

    def __init__(self):
        super().__init__()
        self.calls = Parameter(Tensor(0.0), name="calls", requires_grad=False)

    def construct(self, x):
        ops.assign(self.calls, self.calls + 1)
        return x * 2
