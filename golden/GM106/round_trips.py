import mindspore as ms
import numpy as np
from mindspore import Tensor, nn


class RoundTrip(nn.Cell):
    def construct(self, x):
        same = Tensor(x.asnumpy())
        cast = Tensor(x.asnumpy(), ms.float16)
        named = ms.Tensor(input_data=x.asnumpy(), dtype=ms.float32)
        from_np = Tensor.from_numpy(x.asnumpy())
        doubled = Tensor(x.asnumpy() * 2)  # numpy arithmetic: reported, not rewritten
        host = np.sum(x.asnumpy())
        return same, cast, named, from_np, doubled, host


class Listed(nn.Cell):
    def construct(self, x):
        return x * len(x.tolist())
