# A tensor built from host data has a length Python knows: a loop over it has a constant trip count.
# (mindone's Pixtral: block offsets from a list of patch counts.)
import mindspore as ms
from mindspore import mint, nn, ops


class BlockMask(nn.Cell):
    def construct(self, x, patch_counts):
        ends = ms.tensor(patch_counts).cumsum(-1)
        starts = ms.tensor([0] + patch_counts[:-1]).cumsum(-1)
        mask = mint.zeros((x.shape[1], x.shape[1]))
        for start, end in zip(starts, ends):
            mask[start:end, start:end] = 1
        for row in ms.Tensor([[1, 2], [3, 4]], ms.int32).astype(ms.float32):
            mask = mask + row.sum()
        computed = ops.cumsum(x, 0)
        for row in computed:  # built from the input: as long as its batch
            mask = mask + row.sum()
        for row in ms.tensor(x.shape[0] * [1]):  # host data, but as long as the batch
            mask = mask + row
        return mask
