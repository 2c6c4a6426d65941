"""GM205's hostile Cell: HuBERT's positional convolution (mindnlp 0.3.1's `HubertPositionalConvEmbedding`, written
again small), whose `weight_norm` recomputes the weight in numpy and `set_data` on every call."""

from mindspore import nn, ops

from mindnlp.modules.functional.weight_norm import weight_norm


class PositionalConv(nn.Cell):
    def __init__(self, hidden=8, kernel=4, groups=2):
        super().__init__()
        self.conv = nn.Conv1d(hidden, hidden, kernel_size=kernel, pad_mode="pad", padding=kernel // 2, group=groups,
                              has_bias=True)  # fmt: skip
        self.conv = weight_norm(self.conv, name="weight", dim=2)
        self.head = nn.Dense(hidden, hidden)
        self.head = weight_norm(self.head)  # the whole weight's norm (dim=-1)

    def construct(self, hidden_states):
        hidden_states = self.conv(hidden_states.swapaxes(1, 2))[:, :, :-1]
        return self.head(ops.gelu(hidden_states).swapaxes(1, 2))
