# Seed 000: "TypeError: Multiply values for specific argument: query_embeds" in GRAPH_MODE.
import mindspore as ms
import numpy as np
from mindspore import nn


class BlipImageHead(nn.Cell):
    def __init__(self, vmodel, qformer, proj, num_query=32):
        super().__init__()
        self.vmodel = vmodel
        self.qformer = qformer
        self.pangu_proj = proj
        self.query_tokens = ms.Parameter(ms.Tensor(np.zeros((1, num_query, 768)), ms.float32))

    def construct(self, img_tensor: ms.Tensor):
        img_embeds = self.vmodel(img_tensor)
        batch_size = img_embeds.shape[0]
        img_atts = ms.ops.ones((batch_size, img_embeds.shape[1]), ms.float32)
        output = self.qformer(
            query_embeds=self.query_tokens,
            encoder_hidden_states=img_embeds,
            encoder_attention_mask=img_atts,
        )
        return self.pangu_proj(output)
