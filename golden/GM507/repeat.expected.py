from mindspore import nn, ops


class Prenet(nn.Cell):
    def construct(self, inputs_embeds, coords, img_sizes, batch_size):
        mask = ops.bernoulli(inputs_embeds[0], p=0.5)
        all_masks = ops.tile(mask.unsqueeze(0), (inputs_embeds.shape[0], 1, 1))  # torch's tile
        pos = coords.repeat((2, 1))
        sizes = img_sizes.unsqueeze(0).repeat([batch_size, 1])
        flat = coords.reshape(-1).repeat(3)
        same_shape = ops.tile(coords, coords.shape)
        return all_masks, pos, sizes, flat, same_shape


class Glm4vEmbeddings(nn.Cell):
    def construct(self, image_shapes, lengths, i):
        return image_shapes[i, 1].repeat(lengths[i].item()), image_shapes[i, 2].repeat(len(lengths))
