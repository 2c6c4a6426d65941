"""A Cell whose construct breaks STRICT only in its training branch (issue 15): eval mode alone passes."""

from mindspore import Tensor, nn


class Base(nn.Cell):
    def __init__(self, dim, eps=1e-5, *, act=None):
        super().__init__()
        self.dim = dim

    def construct(self, x, mask=None):
        if self.training:
            x = x + Tensor(x.asnumpy())  # a host copy: STRICT cannot compile it
        return x


class Head(Base):
    """construct, __init__ and the self.training read all come from the base."""
