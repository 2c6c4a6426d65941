"""GM106: asnumpy round trips back into a tensor."""

import mindspore as ms
from mindspore import Tensor, nn


class RoundTrip(nn.Cell):
    def construct(self, x):
        same = Tensor(x.asnumpy())
        half = Tensor(x.asnumpy(), ms.float16)
        return same * 2, half + 1
