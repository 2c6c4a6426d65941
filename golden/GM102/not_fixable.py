# Reported without a fix: no ops equivalent, a single number, or a result that feeds numpy again.
import numpy as np
from mindspore import Tensor, nn


class Masking(nn.Cell):
    def __init__(self, layerdrop=0.1):
        super().__init__()
        self.layerdrop = layerdrop

    def construct(self, x, mask_length):
        layerdrop_prob = np.random.random()
        epsilon = np.random.rand(1).item()
        order = np.random.permutation(8)
        picked = np.random.choice(8, 2, replace=False)
        spans = np.sort(np.random.rand(4))
        typed = np.random.rand(3).astype(self.dtype)
        return layerdrop_prob, epsilon, order, picked, spans, typed
