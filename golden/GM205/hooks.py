"""The hook version (encodec's import): default dim 0, `dim=None` for the whole weight."""
from mindspore import nn

from mindnlp.modules.weight_norm import weight_norm


class EncodecConv1d(nn.Cell):
    def __init__(self, config, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv1d(in_channels, out_channels, kernel_size, pad_mode="valid")
        if config.norm_type == "weight_norm":
            setattr(self, "conv", weight_norm(self.conv))
        self.out = weight_norm(nn.Dense(out_channels, out_channels), dim=None)

    def construct(self, hidden_states):
        return self.out(self.conv(hidden_states).swapaxes(1, 2))
