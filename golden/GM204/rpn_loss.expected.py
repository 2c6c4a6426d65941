# The RPN-head pattern of detection models: a loss starts from a constant tensor attribute.
import mindspore.common.dtype as mstype
import numpy as np
from mindspore import Tensor, nn, ops


class RPN(nn.Cell):
    def __init__(self, num_layers=5):
        super().__init__()
        self.num_layers = num_layers
        self.loss = Tensor(np.zeros((1,)).astype(np.float32))
        self.clsloss = Tensor(np.zeros((1,)).astype(np.float32))
        self.regloss = Tensor(np.zeros((1,)).astype(np.float32))
        self.cast = ops.Cast()

    def construct(self, cls_scores, bbox_preds, labels, weights):
        loss_print = ()
        loss = self.loss
        clsloss = self.clsloss
        regloss = self.regloss
        for i in range(self.num_layers):
            loss_cls = ops.reduce_sum(cls_scores * labels) / weights
            loss_reg = ops.reduce_sum(bbox_preds * labels) / weights
            loss_total = 1.0 * loss_cls + 1.0 * loss_reg
            loss = loss + loss_total
            loss_print += (loss_total, loss_cls, loss_reg)
            clsloss = clsloss + loss_cls
            regloss = regloss + loss_reg   # keeps its comment
        return loss, clsloss, regloss, loss_print
