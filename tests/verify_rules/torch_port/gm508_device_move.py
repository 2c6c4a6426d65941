"""GM508: device moves (`.to(device)` fails in GRAPH_MODE; `.cpu()`/`.cuda()` in every mode)."""

import mindspore as ms
from mindspore import nn


class Head(nn.Cell):
    def __init__(self):
        super().__init__()
        self.device = "cpu"

    def construct(self, x):
        labels = (x > 0).to(x.device, ms.int32)
        moved = x.to(self.device)
        return labels, moved.to("cuda") * 2, (x + 1).cpu()
