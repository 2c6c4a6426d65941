from mindspore import nn, ops


class Matcher(nn.Cell):
    def construct(self, scores, dist):
        top = scores.max(-1)[0]  # values, as torch's code meant
        indices = dist.max(1)[1]
        matching_scores, max_indices = scores.max(1)
        values = scores.max(2).values
        low = scores.min(1, True)[0]
        pair = dist.min(-1)
        best, where = pair
        return top, indices, matching_scores, max_indices, values, low, best, where
