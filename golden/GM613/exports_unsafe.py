import numpy as np

import mindspore
from mindspore import Tensor, export
from mindspore import export as save_mindir

from model import Net

net = Net()
x = Tensor(np.ones((1, 3, 8, 8), np.float32))
export(net, x, 2, file_name="net", file_format="MINDIR")
mindspore.export(net, x, -0.5, (1, 2), file_name="net2", file_format="MINDIR")
save_mindir(net, x, [3, 4], file_name="net3", file_format="MINDIR")
