from mindspore import Parameter, nn, ops
import mindspore as ms


class Embeddings(nn.Cell):
    def __init__(self, dim):
        super().__init__()
        self.cls_token = Parameter(ops.zeros((1, 1, dim), ms.float32))

    def construct(self, x, position_ids, input_shape):
        batch_size = x.shape[0]
        cls_tokens = self.cls_token.expand(batch_size, -1, -1)  # separate sizes
        as_tuple = self.cls_token.expand((batch_size, 1, -1))
        as_list = x[:, :1].expand([-1, 3, -1, -1])
        like = position_ids.unsqueeze(0).expand(x.shape)
        part = x[:1].expand(x.shape[:2] + (8, 8))
        one = position_ids.expand(4)
        return cls_tokens, as_tuple, as_list, like, part, one


class PositionIds(nn.Cell):
    def construct(self, input_ids, position_ids):
        input_shape = input_ids.shape
        return position_ids.unsqueeze(0).expand(input_shape)
