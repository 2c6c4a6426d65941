# item(), float(), int() and bool() compile in every configuration of MindSpore 2.10; asnumpy outside graph code.
import mindspore as ms
import numpy as np
from mindspore import Tensor, nn


class Scalars(nn.Cell):
    def construct(self, x):
        s = x.mean().item()
        f = float(x.max())
        k = int(x.sum() > 0)
        if bool(x.min() > 0):
            return x * s * f * k
        return x


def to_host(x):
    return Tensor(x.asnumpy(), ms.float32)


class HostList(nn.Cell):
    def __init__(self, sizes=(1, 2)):
        super().__init__()
        self.sizes = sizes

    def construct(self, x):
        return x, np.array(self.sizes).tolist()
