"""GM506: torch's `expand` (PyNative only)."""

import mindspore as ms
from mindspore import Parameter, nn, ops


class Embeddings(nn.Cell):
    def __init__(self):
        super().__init__()
        self.cls_token = Parameter(ops.ones((1, 3, 1, 1), ms.float32))

    def construct(self, x):
        batch_size = x.shape[0]
        cls_tokens = self.cls_token.expand(batch_size, -1, 8, 8)
        as_tuple = x[:, :1].expand((batch_size, 3, -1, -1))
        as_list = x[:, :, :1].expand([-1, -1, 8, -1])
        like = x[:1].expand(x.shape)
        return x + cls_tokens, as_tuple, as_list, like
