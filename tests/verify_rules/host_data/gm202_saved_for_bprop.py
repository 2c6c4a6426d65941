"""GM202: an input kept in an attribute for the Cell's own bprop (mindnlp's reformer ReverseSort)."""

from mindspore import nn, ops


class ReverseSort(nn.Cell):
    def construct(self, out_vectors, logits, sorted_bucket_idx, undo_sorted_bucket_idx):
        # save sorted_bucket_idx for backprop
        self.sorted_bucket_idx = sorted_bucket_idx

        # undo sort to have correct order for next layer
        expanded_undo_sort_indices = ops.broadcast_to(undo_sorted_bucket_idx.unsqueeze(-1), out_vectors.shape)
        out_vectors = ops.gather_elements(out_vectors, 2, expanded_undo_sort_indices)
        logits = ops.gather_elements(logits, 2, undo_sorted_bucket_idx)
        return out_vectors, logits

    def bprop(self, out_vectors, logits, sorted_bucket_idx, undo_sorted_bucket_idx, outputs, grads):
        grad_out_vectors, grad_logits = grads
        # get parameters saved in ctx
        sorted_bucket_idx = self.sorted_bucket_idx

        expanded_sort_indices = ops.broadcast_to(sorted_bucket_idx.unsqueeze(-1), grad_out_vectors.shape)
        grad_out_vectors = ops.gather_elements(grad_out_vectors, 2, expanded_sort_indices)
        grad_logits = ops.gather_elements(grad_logits, 2, sorted_bucket_idx)
        return grad_out_vectors, grad_logits, None, None


class Loss(nn.Cell):
    """A loss through ReverseSort, for its gradient (tests/test_verify_host_data.py)."""

    def __init__(self):
        super().__init__()
        self.sort = ReverseSort()

    def construct(self, out_vectors, logits, sorted_bucket_idx, undo_sorted_bucket_idx):
        vectors, scores = self.sort(out_vectors * 2, logits * 3, sorted_bucket_idx, undo_sorted_bucket_idx)
        weights = ops.arange(vectors.shape[-1]).astype(vectors.dtype)
        return (vectors * weights).sum() + (scores * scores).sum()
