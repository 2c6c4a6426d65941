"""Look-alikes that are not mindnlp's hijacking weight_norm: left as they are."""
import torch
from mindspore import nn
from mindone.utils import WeightNorm
from mindnlp.modules.functional.weight_norm import weight_norm  # imported, never called


def local_weight_norm(cell, dim=0):
    return cell


class Blocks(nn.Cell):
    def __init__(self):
        super().__init__()
        self.a = WeightNorm(nn.Conv1d(4, 4, 3), dim=2)  # mindone's graph-native Cell
        self.b = local_weight_norm(nn.Conv1d(4, 4, 3))
        self.c = torch.nn.utils.weight_norm(torch.nn.Conv1d(4, 4, 3))  # another framework's

    def construct(self, x):
        return self.b(self.a(x))
