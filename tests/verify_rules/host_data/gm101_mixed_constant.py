"""mindocr's ABINet location mask (heads/rec_abinet_head.py), small: a bare numpy constant next to a numpy
constructor of a dimension. GM101 rewrites both; the constant left numpy would meet the other's tensor."""

import mindspore as ms
import numpy as np
from mindspore import nn


class LocationMask(nn.Cell):
    def _get_location_mask(self, sz):
        a = np.eye(sz, sz)
        b = np.ones((6, 6))
        mask = b - a
        mask = ms.Tensor(mask)
        return mask.astype(ms.bool_)

    def construct(self, tokens):
        return tokens * self._get_location_mask(tokens.shape[1])[None].astype(ms.float32)
