import mindspore as ms
from mindspore import nn, ops


class Head(nn.Cell):
    def __init__(self, device="cuda"):
        super().__init__()
        self.device = device
        self.place = "cpu"

    def construct(self, logits, labels, input_ids, pad_token_id, k):
        a = labels
        b = labels
        c = labels
        d = (input_ids != pad_token_id).to(ms.int32)
        e = labels
        f = labels.to(dtype=ms.float16)
        g = labels
        h = (labels + 1)
        i = labels.to(self.place)  # a string set in __init__, but not named like a device
        return a, b, c, d, e, f, g, h, i
