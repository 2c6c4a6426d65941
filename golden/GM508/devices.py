import mindspore as ms
from mindspore import nn, ops


class Head(nn.Cell):
    def __init__(self, device="cuda"):
        super().__init__()
        self.device = device
        self.place = "cpu"

    def construct(self, logits, labels, input_ids, pad_token_id, k):
        a = labels.to(logits.device)
        b = labels.to("cuda:" + str(k + 1))
        c = labels.to(self.device)
        d = (input_ids != pad_token_id).to(logits.device, ms.int32)
        e = labels.to(logits.device, non_blocking=True)
        f = labels.to(device=self.device, dtype=ms.float16)
        g = labels.cuda()
        h = (labels + 1).cpu()
        i = labels.to(self.place)  # a string set in __init__, but not named like a device
        return a, b, c, d, e, f, g, h, i


class Inference(nn.Cell):
    """mindformers' GPTModel: a PyNative-only branch next to `ops.move_to` for graph mode."""

    def __init__(self):
        super().__init__()
        self.is_pynative = True

    def construct(self, batch_valid_length, token_ids, pad_token_id):
        if self.is_pynative:  # ops.move_to does not support pynative mode
            lengths = batch_valid_length.to("CPU")
        else:
            lengths = ops.move_to(batch_valid_length, "CPU")
        on_host = batch_valid_length.to("CPU")  # MindSpore's own device name: reported, not dropped
        mask = (token_ids != pad_token_id).to(ms.long)
        return lengths, on_host, mask
