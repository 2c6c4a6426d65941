# Real code: DiT/FiT classifier-free guidance (mindone), CLIP's contrastive loss (mindone
# transformers), Shap-E's parameter projection (mindone diffusers).
from typing import Union

import mindspore as ms
from mindspore import Tensor, mint, nn, ops


def contrastive_loss(logits: ms.Tensor) -> ms.Tensor:
    return ops.cross_entropy(logits, ops.arange(logits.shape[0]))


class DiT(nn.Cell):
    @ms.jit
    def construct_with_cfg(self, x: Tensor, t: Tensor, y: Tensor, cfg_scale: Union[float, Tensor]):
        half = x[: x.shape[0] // 2]
        combined = mint.cat([half, half], dim=0)
        model_out = self.construct(combined, t, y)
        eps, rest = model_out[:, : self.in_channels], model_out[:, self.in_channels :]
        cond_eps, uncond_eps = mint.split(eps, eps.shape[0] // 2, dim=0)
        return cond_eps + cfg_scale * (cond_eps - uncond_eps)


class CLIP(nn.Cell):
    def construct(self, image_embeds, text_embeds):
        logits = ops.matmul(text_embeds, image_embeds.t())
        return contrastive_loss(logits)


class ShapEParamsProjModel(nn.Cell):
    def __init__(self, config, projections):
        super().__init__()
        self.config = config
        self.projections = projections

    def construct(self, x):
        out = {}
        start = 0
        for k, shape in zip(self.config["param_names"], self.config["param_shapes"]):
            vectors, _ = shape
            end = start + vectors
            x_bvd = x[:, start:end]
            out[k] = self.projections[k](x_bvd).reshape(x.shape[0], *shape)
            start = end
        return out


class MaskFormerLoss(nn.Cell):
    """mindone's MaskFormer loss: `class_labels` is annotated a Tensor but is a list of tensors; either
    way its elements are tensors, so `len(classes)` is rewritten."""

    def construct(self, masks_queries_logits, class_labels):
        return self.get_num_masks(class_labels) * masks_queries_logits

    def get_num_masks(self, class_labels: ms.Tensor) -> ms.Tensor:
        num_masks = sum([classes.shape[0] for classes in class_labels])
        return ms.tensor(num_masks, dtype=ms.float32)
