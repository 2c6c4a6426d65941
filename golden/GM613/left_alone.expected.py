import numpy as np

import mindspore
from mindspore import Tensor, mutable


class Exporter:
    def export(self, net, *inputs, **kwargs):
        return net, inputs, kwargs


net = object()
x = Tensor(np.ones((1, 3), np.float32))
mindspore.export(net, x, file_name="net", file_format="MINDIR")  # tensors only
mindspore.export(net, x, False, None, "mode", file_name="net", file_format="MINDIR")  # options
mindspore.export(net, x, mutable(2), file_name="net", file_format="MINDIR")  # already an input
mindspore.export(net, x, (), file_name="net", file_format="MINDIR")
mindspore.export(net, x, *[2], file_name="net")
Exporter().export(net, x, 2)  # a method of one's own called export
np.save("x.npy", 2)
