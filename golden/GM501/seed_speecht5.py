# Seed: mindone SpeechT5 speech-decoder prenet (a half-done port: `.size(i)` everywhere)
import mindspore as ms
from mindspore import nn, ops


class SpeechDecoderPrenet(nn.Cell):
    def __init__(self, hidden_size, num_mel_bins):
        super().__init__()
        self.final_layer = nn.Dense(num_mel_bins, hidden_size)
        self.num_mel_bins = num_mel_bins

    def construct(self, input_values):
        inputs_embeds = self.final_layer(input_values)
        logits = inputs_embeds.view(inputs_embeds.size(0), -1, self.num_mel_bins)
        stop_labels = ops.cat([logits[:, :, :1], ops.ones((logits.size(0), logits.size(1), 1), ms.float32)], axis=-1)
        return stop_labels
