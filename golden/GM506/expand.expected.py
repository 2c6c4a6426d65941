from mindspore import Parameter, nn, ops
import mindspore as ms


class Embeddings(nn.Cell):
    def __init__(self, dim):
        super().__init__()
        self.cls_token = Parameter(ops.zeros((1, 1, dim), ms.float32))

    def construct(self, x, position_ids, input_shape):
        batch_size = x.shape[0]
        cls_tokens = ops.broadcast_to(self.cls_token, (batch_size, -1, -1))  # separate sizes
        as_tuple = ops.broadcast_to(self.cls_token, (batch_size, 1, -1))
        as_list = ops.broadcast_to(x[:, :1], (-1, 3, -1, -1))
        like = ops.broadcast_to(position_ids.unsqueeze(0), x.shape)
        part = ops.broadcast_to(x[:1], x.shape[:2] + (8, 8))
        one = ops.broadcast_to(position_ids, (4,))
        return cls_tokens, as_tuple, as_list, like, part, one


class PositionIds(nn.Cell):
    def construct(self, input_ids, position_ids):
        input_shape = input_ids.shape
        return ops.broadcast_to(position_ids.unsqueeze(0), input_shape)
