# Real code: a learning-rate schedule that branches on the step tensor (mindformers), and an
# element-wise permutation in a loss (mindaudio). Reported; nothing here is a select of one shape.
import math

import mindspore as ms
from mindspore import Tensor, nn
from mindspore import dtype as mstype
from mindspore.ops import operations as P


class CosineWithWarmUpLR(nn.Cell):
    def __init__(self, learning_rate, warmup_steps, decay_steps, cosine_steps, lr_end=0.0):
        super().__init__()
        self.learning_rate = learning_rate
        self.lr_end = Tensor(lr_end, mstype.float32)
        self.warmup_lr_init = 0.0
        self.warmup_steps = Tensor(warmup_steps, mstype.float32)
        self.cosine_steps = Tensor(cosine_steps, mstype.float32)
        self.decay_steps = Tensor(decay_steps, mstype.float32)
        self.greater = P.Greater()
        self.greater_equal = P.GreaterEqual()
        self.max = P.Maximum()
        self.cos = P.Cos()
        self.zero_constant = Tensor(0.0, mstype.float32)
        self.cast = P.Cast()

    def construct(self, global_step):
        global_step = self.cast(global_step, mstype.float32)
        if self.greater_equal(global_step, self.decay_steps):
            # Include global_step in computation to circumvent mindspore control flow issues
            return global_step - global_step + self.lr_end

        if self.warmup_steps != 0 and self.greater(self.warmup_steps, global_step):
            percent = global_step / self.warmup_steps
            learning_rate = self.warmup_lr_init + (self.learning_rate - self.warmup_lr_init) * percent
        else:
            progress = (global_step - self.warmup_steps) / self.cosine_steps
            percent = self.max(self.zero_constant, 0.5 * (1.0 + self.cos(math.pi * progress)))
            learning_rate = self.learning_rate * percent
        return learning_rate


class SeparationLoss(nn.Cell):
    def construct(self, source, perms, max_snr_idx):
        B, C, _, _ = source.shape
        max_snr_perm = perms[max_snr_idx, :]
        reorder_source = source * 0
        for b in range(B):
            for c in range(C):
                if max_snr_perm[b][c] == 1:
                    reorder_source[b, c] = source[b, 1]
                else:
                    reorder_source[b, c] = source[b, 0]
        return reorder_source
