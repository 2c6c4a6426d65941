from mindspore import nn, ops


class AlignMetric(nn.Cell):
    def construct(self, align_metric, pos_overlaps, prediction, conf_thres):
        norm = (align_metric * pos_overlaps).max(axis=-2).expand_dims(-1)
        candidates = prediction[..., 4:].max(axis=-1) > conf_thres
        peak = ops.exp(align_metric.max(axis=1))
        shifted = align_metric.min(axis=1) - 1.0
        m = align_metric.max(axis=1)
        scaled = m * 0.5 + m.mean()
        return norm, candidates, peak, shifted, scaled
