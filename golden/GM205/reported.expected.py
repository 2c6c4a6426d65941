"""What the fix cannot take apart is reported, with what to write."""
from mindspore import nn

from mindnlp.modules.weight_norm import WeightNorm, weight_norm
from mindnlp.modules.functional.weight_norm import weight_norm as functional_weight_norm; import math


class Conv(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = weight_norm(nn.Conv1d(4, 4, 3))  # the hook version's class is used below
        self.other = functional_weight_norm(nn.Conv1d(4, 4, 3), dim=0)  # the import shares its line
        self.scale = math.sqrt(4)

    def construct(self, x):
        return self.other(self.conv(x)) * self.scale

    def hooks(self):
        return [h for h in self.conv._forward_pre_hook.values() if isinstance(h, WeightNorm)]
