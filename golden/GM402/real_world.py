# Real code: mindaudio's permutation-invariant loss and mindocr's RPN proposal generator loop over
# the batch; a tiled VAE decoder loops over the spatial size (mindone diffusers).
import mindspore as ms
from mindspore import nn, ops


class SeparationLoss(nn.Cell):
    def __init__(self):
        super().__init__()
        self.zeros_like = ops.ZerosLike()

    def construct(self, source, perms, max_snr_idx):
        return self.reorder_source(source, perms, max_snr_idx)

    def reorder_source(self, source, perms, max_snr_idx):
        B, C, _, _ = source.shape
        max_snr_perm = perms[max_snr_idx, :]
        reorder_source = self.zeros_like(source)
        for b in range(B):
            for c in range(C):
                if max_snr_perm[b][c] == 1:
                    reorder_source[b, c] = source[b, 1]
                else:
                    reorder_source[b, c] = source[b, 0]
        return reorder_source


class ProposalGenerator(nn.Cell):
    def __init__(self, post_nms_top_n=100):
        super().__init__()
        self.topk = ops.TopK()
        self.post_nms_top_n = post_nms_top_n

    def construct(self, levels):
        boxes = ops.concat(levels, axis=1)
        proposal_boxes = []
        for b in range(boxes.shape[0]):
            box = boxes[b]
            _, idx = self.topk(box[:, 4], self.post_nms_top_n)
            proposal_boxes.append(box[idx][:, :4])
        return ops.stack(proposal_boxes)


class TiledDecoder(nn.Cell):
    def __init__(self, decoder, overlap_size=32):
        super().__init__()
        self.decoder = decoder
        self.overlap_size = overlap_size

    def construct(self, z):
        rows = []
        for i in range(0, z.shape[2], self.overlap_size):
            row = []
            for j in range(0, z.shape[3], self.overlap_size):
                row.append(self.decoder(z[:, :, i : i + 64, j : j + 64]))
            rows.append(ops.cat(row, axis=-1))
        return ops.cat(rows, axis=2)
