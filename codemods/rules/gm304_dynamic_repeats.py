from __future__ import annotations

import libcst as cst
from libcst.helpers import parse_template_expression

from graphmend.builders import atom
from graphmend.calls import method_call
from graphmend.messages import explains
from graphmend.numpy_calls import argument
from graphmend.rule import Rule
from graphmend.targets import DYNAMIC, breaks


class DynamicRepeats(Rule):
    """`repeat_interleave(x, <shape dimension>, axis)` in graph code → `broadcast_to` and `reshape`.

    What it does:
        Finds `ops.repeat_interleave(x, n, axis)` and `x.repeat_interleave(n, axis)` (or `dim=`) inside
        `construct` (and other graph code) whose repeat count `n` is a shape dimension (`x.shape[0]`,
        `len(x)`, a name bound to one, arithmetic on them) and rewrites it to a broadcast along a new axis
        followed by a reshape that merges it: each slice along `axis` repeated `n` times in a row.
        A constant count (`repeat_interleave(x, 2, 0)`) compiles everywhere and is left alone.

    Why it breaks graph mode:
        With a dynamic batch the count is not a constant, and MindSpore turns it into a tensor the op
        does not take. Measured on MindSpore 2.10 (CPU): `ops.repeat_interleave(x, x.shape[0], 0)` and
        `x.repeat_interleave(x.shape[0], dim=0)` pass PyNative, GRAPH and STRICT and fail a dynamic batch
        with "For 'Tensor', the type of 'input_data' should be one of [...] but got type 'Float'" ('Int' for
        mindocr's PP_Layer, whose count is the batch of another input).
        `ops.broadcast_to(x.expand_dims(1), x.shape[:1] + (n,) + x.shape[1:]).reshape((-1,) + x.shape[1:])`
        passes all four, equal element for element, for axis 0 and axis 1.

    Example:
        keys = ops.repeat_interleave(k, n, 0)
        # becomes
        keys = ops.broadcast_to(k.expand_dims(1), k.shape[:1] + (n,) + k.shape[1:]).reshape((-1,) + k.shape[1:])

    Fix safety:
        Safe: the same values in the same order and the same dtype. Reported without a fix when `x` is not
        a name or an attribute (the fix reads it three times), when the axis is not a literal int >= 0 (a
        negative axis needs the rank; no axis flattens), or with other arguments (`output_size=`).
        `mint.repeat_interleave` is not matched: MindSpore 2.10 has no CPU kernel for it to measure.
    """

    CODE = "GM304"
    NAME = "dynamic-repeats"
    BREAKS = breaks(DYNAMIC, note="a repeat count read from a dynamic dimension")
    # 'Float' on the hostile Cell here, 'Int' on mindocr's PP_Layer (bench/realcells)
    EXPLAINS = (explains(r"For 'Tensor', the type of 'input_data' should be one of .* but got type '(Float|Int)'",
                         DYNAMIC),)  # fmt: skip
    FIX = "safe"

    def visit_Call(self, node: cst.Call) -> None:
        parts = self._parts(node)
        if parts is None:
            return
        tensor, repeats, axis = parts
        if not self.values.is_dimension(repeats):
            return
        message = (
            f"`{self.ctx.code(node)}` in {self.ctx.where()} repeats by the shape dimension "
            f"`{self.ctx.code(repeats)}`: with a dynamic batch it is not a constant and compiling fails "
            "(\"the type of 'input_data' should be one of\"); use `ops.broadcast_to` and `reshape`"
        )
        why = self._why_not(tensor, axis)
        if why:
            self.report(node, f"{message} ({why}: rewrite by hand)")
            return
        a = int(axis.value)  # type: ignore[union-attr]
        func, needed = self.ctx.bindings.reference("mindspore.ops.broadcast_to")
        merged = "(-1,) + {x}.shape[1:]" if a == 0 else f"{{x}}.shape[:{a}] + (-1,) + {{x}}.shape[{a + 1}:]"
        template = (
            f"{{func}}({{x}}.expand_dims({a + 1}), {{x}}.shape[:{a + 1}] + ({{n}},) + {{x}}.shape[{a + 1}:])"
            f".reshape({merged})"
        )
        replacement = parse_template_expression(template, func=func, x=atom(tensor), n=repeats)
        self.report(node, message, replacement, "safe", (needed,))

    def _parts(self, node: cst.Call) -> tuple[cst.BaseExpression, cst.BaseExpression, cst.BaseExpression | None] | None:
        """(tensor, repeats, axis) of a `repeat_interleave` call; None for any other call."""
        if "mindspore.ops.repeat_interleave" in self.ctx.names(node.func):
            tensor, repeats = argument(node, 0, "input"), argument(node, 1, "repeats")
            axis, count = argument(node, 2, "axis"), 3
        else:
            receiver = method_call(node, "repeat_interleave")
            if receiver is None or not self.values.is_tensor(receiver):
                return None
            tensor, repeats = receiver, argument(node, 0, "repeats")
            axis, count = argument(node, 1, "dim"), 2
        if tensor is None or repeats is None:
            return None
        if len(node.args) > count or any(a.star for a in node.args):
            return tensor, repeats, None
        return tensor, repeats, axis

    def _why_not(self, tensor: cst.BaseExpression, axis: cst.BaseExpression | None) -> str:
        if not isinstance(axis, cst.Integer):
            return "its axis is not a literal int >= 0"
        if not self._read_again(tensor):
            return "the tensor is not a name or a constant index of one (the fix reads it three times)"
        return ""

    def _read_again(self, tensor: cst.BaseExpression) -> bool:
        """A name, or a constant index of one (`order[None, ...]`, mindocr's PP_Layer): reading it three
        times gives the same tensor each time and computes nothing."""
        if isinstance(tensor, cst.Subscript):
            return self._read_again(tensor.value) and all(_constant_index(e.slice) for e in tensor.slice)
        return isinstance(tensor, cst.Name | cst.Attribute) and self.values.is_pure(tensor)


def _constant_index(index: cst.BaseSlice) -> bool:
    if isinstance(index, cst.Slice):
        parts = (index.lower, index.upper, index.step)
        return all(p is None or _constant_value(p) for p in parts)
    return _constant_value(index.value)  # type: ignore[attr-defined]


def _constant_value(node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        return isinstance(node.expression, cst.Integer)
    return isinstance(node, cst.Integer | cst.Ellipsis) or (isinstance(node, cst.Name) and node.value == "None")
