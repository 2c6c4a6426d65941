# numpy on constants and shapes folds at compile time; mindspore.numpy is graph-native.
import mindspore.numpy as np
import numpy
from mindspore import Tensor, nn


class Scaled(nn.Cell):
    def __init__(self, dim=64, rates=(2, 2)):
        super().__init__()
        self.dim = dim
        self.rates = rates

    def construct(self, x, mask_length=4):
        scaled = x / numpy.sqrt(self.dim)
        flat = x.reshape(x.shape[0], int(numpy.prod(x.shape[1:])))
        clamp = numpy.finfo(numpy.float16).max - 1000
        up = numpy.prod(self.rates).item()
        native = np.sqrt(x)
        log10 = numpy.log(10)
        half = numpy.float32(0.5)
        return scaled, flat, clamp, up, native, log10, half, mask_length


def _compute_mask_indices(shape, mask_prob):
    batch_size, sequence_length = shape
    return numpy.zeros((batch_size, sequence_length), dtype=bool), numpy.sum(mask_prob)


class Cosmos(nn.Cell):
    """mindone's CosmosLearnablePositionalEmbed: numpy on element counts, which are Python ints."""

    def construct(self, emb, norm):
        return emb / numpy.sqrt(norm.numel() / emb.numel()), numpy.float32(emb.dtype == norm.dtype)
