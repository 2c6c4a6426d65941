from __future__ import annotations

import libcst as cst

from graphmend.messages import explains
from graphmend.numpy_calls import argument
from graphmend.rule import Rule
from graphmend.targets import DYNAMIC, breaks


class NumpyWhereDynamic(Rule):
    """`mindspore.numpy.where(cond, x, y)` in graph code → `ops.where(cond, x, y)`.

    What it does:
        Finds the three-argument `where` of `mindspore.numpy` (however it is imported: `import
        mindspore.numpy as np` is common in MindSpore ports of numpy code) inside `construct` and other
        graph code, and rewrites it to `ops.where` with the same arguments. The one-argument form (the
        indices of the nonzero elements) and host numpy's `where` (GM103's) are left alone.

    Why it breaks graph mode:
        `mindspore.numpy.where` takes another code path when a shape is dynamic, which adds the bool
        condition to a tensor. Measured on MindSpore 2.10 (CPU; tests/verify_rules/shapes_flow/
        gm305_numpy_where_dynamic.py, and mindaudio's AdditiveAngularMargin in bench/realcells): it passes
        PyNative, GRAPH, STRICT and export, and fails a dynamic batch with "For primitive[Add], the input
        argument[x] must be a type of {...}, but got Tensor[Bool]". `ops.where` passes all four with
        PyNative's numbers.

    Example:
        phi = np.where(cosine > self.th, phi, cosine - self.mm)   # import mindspore.numpy as np
        # becomes
        phi = ops.where(cosine > self.th, phi, cosine - self.mm)

    Fix safety:
        Safe when the condition is a bool tensor for certain (a comparison of tensors, a cast to bool, a
        `logical_*` op, or one of them tiled, reshaped or indexed: `ops.tile(ops.expand_dims(m > 1, 1), …)`
        in mindyolo's YOLOv8 assigner, or a helper's parameter every call of which in the file passes one
        from graph code: the same assigner's `select_topk_candidates(…, topk_mask=ops.cast(…, ms.bool_))`)
        and both branches are tensors: measured equal in values and dtype for float32, float16 with
        float32 and int32 with float32 branches (the verifier case includes the helper: only the dynamic
        batch fails before, every check passes after).
        Unsafe otherwise: `ops.where` needs a bool condition (a float or int condition fails on CPU,
        "Unsupported data type"), and with a Python float branch the dtype can differ (a float16 tensor
        and 0.5 give float32 with `mindspore.numpy`, float16 with `ops`).
    """

    CODE = "GM305"
    NAME = "numpy-where-dynamic"
    BREAKS = breaks(DYNAMIC, note="mindspore.numpy.where with a dynamic shape")
    EXPLAINS = (explains(r"For primitive\[Add\], the input argument\[x\] must be a type of .* but got Tensor\[Bool\]",
                         DYNAMIC),)  # fmt: skip
    FIX = "safe/unsafe"

    def visit_Call(self, node: cst.Call) -> None:
        if "mindspore.numpy.where" not in self.ctx.names(node.func):
            return
        if any(a.star for a in node.args) or len(node.args) != 3:
            return
        condition, x, y = argument(node, 0, "condition"), argument(node, 1, "x"), argument(node, 2, "y")
        if condition is None or x is None or y is None:
            return
        func, needed = self.ctx.bindings.reference("mindspore.ops.where")
        replacement = node.with_changes(func=func, args=[cst.Arg(condition), cst.Arg(x), cst.Arg(y)])
        replacement = replacement.with_changes(
            args=[a.with_changes(comma=b.comma) for a, b in zip(replacement.args, node.args, strict=True)]
        )
        message = (
            f"`{self.ctx.code(node)}` in {self.ctx.where()}: `mindspore.numpy.where` fails with a dynamic batch "
            '("must be a type of ..., but got Tensor[Bool]"); `ops.where` is the same select in one graph op'
        )
        why = self._unsafe(condition, x, y)
        if why:
            message += f" (unsafe: {why})"
        self.report(node, message, replacement, "unsafe" if why else "safe", (needed,))

    def _unsafe(self, condition: cst.BaseExpression, x: cst.BaseExpression, y: cst.BaseExpression) -> str:
        if not self.values.is_bool_tensor(condition):
            return f"`ops.where` needs a bool condition, and `{self.ctx.code(condition)}` may not be one"
        loose = [b for b in (x, y) if not self.values.is_tensor(b)]
        if loose:
            return (f"`{self.ctx.code(loose[0])}` may not be a tensor: with a Python float and a float16 tensor "
                    "the result is float32 with mindspore.numpy, float16 with ops")  # fmt: skip
        return ""
