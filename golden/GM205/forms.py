"""mindnlp's functional weight_norm, as wav2vec2 and HuBERT import it: the import goes, a graph-native
`weight_norm` with the same signature comes after the imports, and the calls stay as they are."""

import mindspore
from mindspore import nn, ops
from mindspore import Parameter

from mindnlp.modules.functional.weight_norm import weight_norm
from mindnlp.modules.functional import finfo

__all__ = ["PositionalConvEmbedding"]


class PositionalConvEmbedding(nn.Cell):
    def __init__(self, hidden_size, kernel_size, groups):
        super().__init__()
        self.conv = nn.Conv1d(hidden_size, hidden_size, kernel_size=kernel_size, pad_mode="pad",
                              padding=kernel_size // 2, group=groups, has_bias=True)
        self.conv = weight_norm(self.conv, name="weight", axis=2)
        self.min = finfo(mindspore.float32).min

    def construct(self, hidden_states):
        hidden_states = self.conv(hidden_states.swapaxes(1, 2))
        return ops.gelu(hidden_states).swapaxes(1, 2)
