from __future__ import annotations

import libcst as cst
from libcst.helpers import parse_template_expression

from graphmend.builders import tuple_of
from graphmend.messages import explains
from graphmend.numpy_calls import DType, argument
from graphmend.rule import Rule
from graphmend.targets import DYNAMIC, STRICT, breaks
from graphmend.tree import find
from graphmend.vocabulary import TENSOR_CONSTRUCTORS


class TensorFromShape(Rule):
    """`Tensor(<shape value>, dtype)` in graph code → `ops.scalar_to_tensor` / `ops.tuple_to_array`.

    What it does:
        Finds `Tensor(...)` (and `ms.tensor(...)`) built from a dimension or a shape in graph code and
        rewrites it to a graph op with the same dtype:
        `Tensor(x.shape[0], ms.float32)` → `ops.scalar_to_tensor(x.shape[0], ms.float32)`;
        `Tensor([x.shape[0], x.shape[1]], ms.float32)` and `Tensor(x.shape, ...)` →
        `ops.tuple_to_array(...).astype(...)`. A dimension is `x.shape[i]`, `len(x)`, or integer
        arithmetic on them.

    Why it breaks graph mode:
        `Tensor(...)` in graph code needs a compile-time constant. With static shapes a dimension is one;
        with a dynamic batch it is a variable, and under STRICT syntax (and in a dynamic-shape MindIR
        export) compiling fails: "the inputs should be constant, but found variable 'input_data'". Under
        LAX with a dynamic batch it fails too when the tensor is taken back to a Python number, as
        mindone's SelfAttention1d does (`float(1 / mint.sqrt(ms.tensor(d, dtype=ms.float64)))`:
        "Cannot join the return values of different branches"; measured on 2.10 with that real Cell in
        bench/realcells and with tests/verify_rules/host_data/gm104_scalar_from_batch.py).

    Example:
        batch_size = Tensor(x.shape[0], dtype=mindspore.float32)
        # becomes
        batch_size = ops.scalar_to_tensor(x.shape[0], mindspore.float32)

    Fix safety:
        Safe: the value and the dtype are kept. Where the original names no dtype, the fix writes the one
        `Tensor` would have picked (Int64 for integers, Float32 when a `/` makes a float), because the
        ops default differently (`ops.scalar_to_tensor(3)` is Float32, `ops.tuple_to_array((1, 2))` Int32).
    """

    CODE = "GM104"
    NAME = "tensor-from-shape"
    BREAKS = breaks(
        DYNAMIC,
        together=(STRICT, DYNAMIC),
        note="a dynamic batch: under LAX when the tensor goes back to a Python number, always under STRICT",
    )
    EXPLAINS = (explains(r"Cannot join the return values of different branches", DYNAMIC),)

    def visit_Call(self, node: cst.Call) -> None:
        if not self.ctx.names(node.func) & TENSOR_CONSTRUCTORS or not _only_data_and_dtype(node):
            return
        data = argument(node, 0, "input_data")
        if data is None:
            return
        if self.values.is_dimension(data):
            self._report(node, data, "mindspore.ops.scalar_to_tensor", "{func}({data}, {dtype})")
        elif self.values.is_shape_tuple(data):
            self._report(node, data, "mindspore.ops.tuple_to_array", "{func}({data}).astype({dtype})")
        elif self._is_list_of_dimensions(data):
            items = tuple_of(data)  # type: ignore[arg-type]
            self._report(node, items, "mindspore.ops.tuple_to_array", "{func}({data}).astype({dtype})")

    def _is_list_of_dimensions(self, data: cst.BaseExpression) -> bool:
        if not isinstance(data, (cst.List, cst.Tuple)) or not data.elements:
            return False
        items = [e.value for e in data.elements if not isinstance(e, cst.StarredElement)]
        if len(items) != len(data.elements):
            return False
        return any(self.values.is_dimension(i) for i in items) and all(
            self.values.is_dimension(i) or self.values.is_int(i) or isinstance(i, cst.Float) for i in items
        )

    def _report(self, node: cst.Call, data: cst.BaseExpression, target: str, template: str) -> None:
        func, needed = self.ctx.bindings.reference(target)
        dtype, dtype_import = self._dtype(node, data)
        short = target.rpartition(".")[2]
        message = (
            f"`{self.ctx.code(node)}` in {self.ctx.where()} builds a tensor from a shape value: with a dynamic "
            f'batch, STRICT syntax and dynamic-shape export reject it ("the inputs should be constant"); '
            f"use `ops.{short}`"
        )
        replacement = parse_template_expression(template, func=func, data=data, dtype=dtype)
        self.report(node, message, replacement, "safe", (needed, dtype_import))

    def _dtype(self, node: cst.Call, data: cst.BaseExpression) -> tuple[cst.BaseExpression, tuple | None]:
        written = argument(node, 1, "dtype")
        if written is not None:
            return written, None
        floats = [
            n
            for n in find(data, cst.Float, cst.BinaryOperation)
            if not isinstance(n, cst.BinaryOperation) or isinstance(n.operator, cst.Divide)
        ]
        name = "float32" if floats else "int64"  # what Tensor(...) picks for Python floats and ints
        return DType(name=name).expression(self.ctx)


def _only_data_and_dtype(call: cst.Call) -> bool:
    keywords = {a.keyword.value for a in call.args if a.keyword}
    positional = [a for a in call.args if not a.keyword]
    return keywords <= {"input_data", "dtype"} and len(positional) <= 2 and not any(a.star for a in call.args)
