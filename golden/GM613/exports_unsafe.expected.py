import numpy as np

import mindspore
from mindspore import Tensor, export
from mindspore import export as save_mindir

from model import Net

net = Net()
x = Tensor(np.ones((1, 3, 8, 8), np.float32))
export(net, x, mindspore.mutable(2), file_name="net", file_format="MINDIR")
mindspore.export(net, x, mindspore.mutable(-0.5), mindspore.mutable((1, 2)), file_name="net2", file_format="MINDIR")
save_mindir(net, x, mindspore.mutable([3, 4]), file_name="net3", file_format="MINDIR")
