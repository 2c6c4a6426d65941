import mindspore as ms
from mindspore import Parameter, nn, ops


class Head(nn.Cell):
    def __init__(self, dim):
        super().__init__()
        self.weight = Parameter(ops.ones((dim, dim), ms.float32))
        self.proj = nn.Dense(dim, dim)

    def construct(self, x, mask):
        batch = x.shape[0]  # the batch
        last = x.shape[-1]
        shape = x.shape
        dims = mask.shape[1:]
        rows = self.weight.shape[0]
        cols = self.proj(x).shape[1]
        flat = x.view(x.shape[0], -1)
        return flat * batch * last * rows * cols, shape, dims

    def helper_not_called(self, x):
        return x.size(0)  # not graph code: left alone
