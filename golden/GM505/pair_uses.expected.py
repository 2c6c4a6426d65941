from mindspore import nn, ops


class Matcher(nn.Cell):
    def construct(self, scores, dist):
        top = ops.max(scores, axis=-1)[0]  # values, as torch's code meant
        indices = ops.max(dist, axis=1)[1]
        matching_scores, max_indices = ops.max(scores, axis=1)
        values = ops.max(scores, axis=2)[0]
        low = ops.min(scores, axis=1, keepdims=True)[0]
        pair = ops.min(dist, axis=-1)
        best, where = pair
        return top, indices, matching_scores, max_indices, values, low, best, where
