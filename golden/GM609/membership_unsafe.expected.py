from mindspore import nn


class Found(nn.Cell):
    def construct(self, ids):
        found = (ids == 4).any()
        return ids, found
