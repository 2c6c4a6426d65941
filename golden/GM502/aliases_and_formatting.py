import mindspore
import mindspore as ms
from mindspore.ops import functional as F
from mindspore import ops as O


class SelfAttention(mindspore.nn.Cell):
    def construct(self, key_layer, value_layer, past_key_value):
        key_layer = O.cat([past_key_value[0], key_layer], dim=2)
        value_layer = ms.ops.cat(
            [past_key_value[1], value_layer],
            dim=2,  # the sequence axis
        )
        probs = F.softmax(key_layer, dim = -1)
        return mindspore.ops.mean(probs * value_layer, dim=(1, 2), keepdim=False)
