# Lists of non-Cells, CellLists already, lists registered by hand, and lists outside a Cell.
import mindspore.nn as nn
from mindspore import Tensor, ops


class Head(nn.Cell):
    def __init__(self, dims=(4, 8), layer_cls=nn.Dense):
        super().__init__()
        self.dims = [4, 8, 16]
        self.names = ["a", "b"]
        self.scales = [Tensor(1.0), Tensor(2.0)]
        self.prims = [ops.ReLU(), ops.Sigmoid()]
        self.already = nn.CellList([nn.Dense(4, 4), nn.Dense(4, 4)])
        self.built = [layer_cls(d, d) for d in dims]  # not known to be Cells
        self.mixed = [nn.Dense(4, 4), None]
        self.empty = []

    def construct(self, x):
        return x


class Registered(nn.Cell):
    """Data2VecVisionPyramidPoolingBlock in mindone: the list is registered by hand."""

    def __init__(self, channels=4):
        super().__init__()
        self.layers = [nn.AvgPool2d(2), nn.Conv2d(channels, channels, 1)]
        for i, layer in enumerate(self.layers):
            self.insert_child_to_cell(str(i), layer)

    def construct(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


class Combined(nn.Cell):
    def __init__(self):
        super().__init__()
        self.head = [nn.Dense(4, 4)]
        self.all = self.head + [nn.Dense(4, 4)]

    def construct(self, x):
        return x


class NotACell:
    def __init__(self):
        self.layers = [nn.Dense(4, 4), nn.Dense(4, 4)]


class WrappedLater(nn.Cell):
    """mindcv's MobileViTBlock: the list is completed, then wrapped by the class itself."""

    def __init__(self, dim=4, depth=2):
        super().__init__()
        self.global_rep = [nn.Dense(dim, dim) for _ in range(depth)]
        self.global_rep.append(nn.LayerNorm((dim,)))
        self.global_rep = nn.CellList(self.global_rep)

    def construct(self, x):
        for layer in self.global_rep:
            x = layer(x)
        return x
