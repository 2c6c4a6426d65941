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
