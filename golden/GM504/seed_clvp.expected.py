# Seed: mindone CLVP conditioning encoder (transformers port)
import mindspore as ms
from mindspore import nn, ops


class ClvpDecoderHead(nn.Cell):
    def construct(self, input_ids, eos_token_id):
        each_seq_stop_token_index = (input_ids == eos_token_id).astype(ms.int32)
        stop_index = ops.argmax(each_seq_stop_token_index)
        return input_ids[..., :1] * stop_index
