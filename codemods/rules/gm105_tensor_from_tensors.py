from __future__ import annotations

import libcst as cst
from libcst.helpers import parse_template_expression

from codemods.numpy_calls import argument
from codemods.rule import Rule
from codemods.targets import EXPORT, STRICT, breaks
from codemods.vocabulary import TENSOR_CONSTRUCTORS


class TensorFromTensors(Rule):
    """`Tensor(list of tensors)` in graph code → `ops.stack(list of tensors)`.

    What it does:
        Finds `Tensor(...)` (and `ms.tensor(...)`) whose data is a list or tuple of tensors (results of
        ops, tensor methods, the Cell's inputs) and rewrites it to `ops.stack` of the same list, cast to
        the dtype the original names.

    Why it breaks graph mode:
        `Tensor(...)` needs constant data; a list of graph tensors is not. LAX falls back to running it in
        Python, but STRICT syntax and MindIR export reject it: "the inputs should be constant, but found
        variable 'input_data'".

    Example:
        stats = Tensor([x.mean(), x.max()], ms.float32)
        # becomes
        stats = ops.stack([x.mean(), x.max()]).astype(ms.float32)

    Fix safety:
        Safe when the original names a dtype: same values, same dtype. Unsafe without one, because
        `Tensor` widens integer tensors to Int64 where `ops.stack` keeps their dtype (measured:
        `Tensor([int32, int32])` is Int64). A list that mixes tensors and Python numbers is reported
        without a fix (`ops.stack` takes tensors only).
    """

    CODE = "GM105"
    NAME = "tensor-from-tensors"
    BREAKS = breaks(STRICT, EXPORT, note="LAX builds it through the Python fallback")
    FIX = "safe/unsafe"

    def visit_Call(self, node: cst.Call) -> None:
        if not self.ctx.names(node.func) & TENSOR_CONSTRUCTORS:
            return
        data = argument(node, 0, "input_data")
        if not isinstance(data, (cst.List, cst.Tuple)) or not data.elements:
            return
        tensors = [isinstance(e, cst.Element) and self.values.is_tensor(e.value) for e in data.elements]
        if not any(tensors):
            return
        message = (
            f"`{self.ctx.code(node)}` in {self.ctx.where()} builds a tensor from a list of tensors: STRICT "
            'syntax and export reject it ("the inputs should be constant"); use `ops.stack`'
        )
        dtype = argument(node, 1, "dtype")
        extra = [a for a in node.args if a.value is not data and a.value is not dtype]
        if not all(tensors) or extra or any(a.star for a in node.args):
            why = "it mixes tensors with other values" if not all(tensors) else "it passes more arguments"
            self.report(node, f"{message} ({why}: rewrite by hand)")
            return
        func, needed = self.ctx.bindings.reference("mindspore.ops.stack")
        if dtype is None:
            replacement = parse_template_expression("{func}({data})", func=func, data=data)
            message += " (unsafe: without a dtype, `Tensor` makes integer tensors Int64 and `ops.stack` keeps theirs)"
            self.report(node, message, replacement, "unsafe", (needed,))
            return
        replacement = parse_template_expression("{func}({data}).astype({dtype})", func=func, data=data, dtype=dtype)
        self.report(node, message, replacement, "safe", (needed,))
