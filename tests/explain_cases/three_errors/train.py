"""Written for PyNative: `graphmend run --graph` runs it in GRAPH_MODE."""

import numpy as np
import mindspore as ms

from model import Head

net = Head()
out, kept = net(ms.Tensor(np.ones((2, 8), np.float32)))
print("ok", out.shape, kept.shape)
