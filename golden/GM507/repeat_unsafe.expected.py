from mindspore import nn, ops


class Prenet(nn.Cell):
    def construct(self, inputs_embeds, coords, img_sizes, batch_size):
        mask = ops.bernoulli(inputs_embeds[0], p=0.5)
        all_masks = ops.tile(mask.unsqueeze(0), (inputs_embeds.shape[0], 1, 1))  # torch's tile
        pos = ops.tile(coords, (2, 1))
        sizes = ops.tile(img_sizes.unsqueeze(0), (batch_size, 1))
        flat = ops.tile(coords.reshape(-1), (3,))
        same_shape = ops.tile(coords, coords.shape)
        return all_masks, pos, sizes, flat, same_shape


class Glm4vEmbeddings(nn.Cell):
    def construct(self, image_shapes, lengths, i):
        return ops.tile(image_shapes[i, 1], (lengths[i].item(),)), ops.tile(image_shapes[i, 2], (len(lengths),))


class Upsample(nn.Cell):
    """mindaudio's WaveGrad (written for MindSpore 1.9): numpy's element repeat along axis 2."""

    def __init__(self, factor):
        super().__init__()
        self.factor = factor

    def construct(self, block2):
        return ops.repeat_interleave(block2, self.factor, 2) / self.factor


class LengthRegulator(nn.Cell):
    """mindaudio's FastSpeech2 (MindSpore 1.x): an element repeat along axis 0, in torch's reading a tile of nothing."""

    def construct(self, batch, counts):
        return ops.repeat_interleave(batch, counts, 0), ops.repeat_interleave(batch, 2, 0)
