from __future__ import annotations

import libcst as cst
from libcst.helpers import parse_template_expression

from graphmend.builders import atom
from graphmend.messages import explains
from graphmend.numpy_calls import argument
from graphmend.rule import Rule
from graphmend.targets import EXPORT, STRICT, breaks
from graphmend.vocabulary import TENSOR_CONSTRUCTORS


class TensorFromTensors(Rule):
    """`Tensor(tensor, dtype)` or `Tensor(list of tensors)` in graph code → `.astype(dtype)` / `ops.stack`.

    What it does:
        Finds `Tensor(...)` (and `ms.tensor(...)`) whose data is a tensor (the result of an op or a tensor
        method: `Tensor(x * 2, ms.float16)`, a cast written as a constructor) and rewrites it to the tensor
        itself, or `tensor.astype(dtype)` when it names a dtype. Data that is a list or tuple of tensors
        (`Tensor([x.mean(), x.max()])`) becomes `ops.stack` of the same list, cast to the dtype the
        original names. A list of Python numbers (`Tensor([W + 1, H + 1])` with `W`, `H` ints, or `self.w`
        set to a number) is a constant and is left alone.

    Why it breaks graph mode:
        `Tensor(...)` needs constant data; a graph tensor is not. LAX falls back to running it in Python,
        but STRICT syntax and MindIR export reject it. Measured on MindSpore 2.10 (CPU): `Tensor(x * 2,
        ms.float16)`, `ms.tensor(x * 2, ms.float16)` and `Tensor(x * 2)` pass PyNative, GRAPH and a dynamic
        batch and fail STRICT with "the inputs should be constant, but found variable 'input_data' to be
        nonconstant"; `(x * 2).astype(ms.float16)` passes all four with the same numbers. A list of
        Python ints passes all four as written.

    Example:
        half = Tensor(x * 2, ms.float16)
        stats = Tensor([x.mean(), x.max()], ms.float32)
        # becomes
        half = (x * 2).astype(ms.float16)
        stats = ops.stack([x.mean(), x.max()]).astype(ms.float32)

    Fix safety:
        Safe for one tensor: `Tensor(t)` keeps the dtype of `t` (measured: int32, bool, float16 and
        float32 tensors stay what they are), `Tensor(t, dtype)` is `t.astype(dtype)`. Safe for a list when
        the original names a dtype: same values, same dtype. Unsafe for a list without one, because `Tensor`
        widens integer tensors to Int64 where `ops.stack` keeps their dtype (measured: `Tensor([int32,
        int32])` is Int64). A list that mixes tensors and Python numbers is reported without a fix
        (`ops.stack` takes tensors only), and so is a call with other arguments (`shape=`, `init=`) or on an
        input of the function (`Tensor(x, ms.float16)`: PyNative passes numpy arrays through as they are).
    """

    CODE = "GM105"
    NAME = "tensor-from-tensors"
    BREAKS = breaks(STRICT, EXPORT, note="LAX builds it through the Python fallback")
    EXPLAINS = (
        explains(
            r"When handling script 'Tensor\(input_data, dtype, shape, init, const_arg, device\) in "
            r"graph mode', the inputs should be constant",
            STRICT,
            EXPORT,
        ),
    )
    FIX = "safe/unsafe"

    def visit_Call(self, node: cst.Call) -> None:
        if not self.ctx.names(node.func) & TENSOR_CONSTRUCTORS:
            return
        data = argument(node, 0, "input_data")
        if data is None:
            return
        dtype = argument(node, 1, "dtype")
        extra = [a for a in node.args if a.value is not data and a.value is not dtype] or any(a.star for a in node.args)
        if isinstance(data, cst.List | cst.Tuple):
            self._list(node, data, dtype, bool(extra))
        elif self.values.is_tensor(data):
            self._cast(node, data, dtype, bool(extra))

    def _cast(self, node: cst.Call, data: cst.BaseExpression, dtype: cst.BaseExpression | None, extra: bool) -> None:
        use = "the tensor itself" if dtype is None else "`.astype`"
        message = (
            f"`{self.ctx.code(node)}` in {self.ctx.where()} builds a tensor from the tensor "
            f'`{self.ctx.code(data)}`: STRICT syntax and export reject it ("the inputs should be constant"); '
            f"use {use}"
        )
        why = "it passes more arguments" if extra else self._input_name(data)
        if why:
            self.report(node, f"{message} ({why}: rewrite by hand)")
            return
        if dtype is None:
            self.report(node, message, data.with_changes(lpar=[], rpar=[]) if data.lpar else data, "safe")
            return
        replacement = parse_template_expression("{data}.astype({dtype})", data=atom(data), dtype=dtype)
        self.report(node, message, replacement, "safe")

    def _input_name(self, data: cst.BaseExpression) -> str:
        """Why an input used as an array may be a numpy array ("" when it is not an input)."""
        bindings = self.values.bindings(data.value) if isinstance(data, cst.Name) else []
        if bindings and all(b.kind == "param" for b in bindings):
            return "an input may be a host numpy array, which has no `.astype(ms dtype)`"
        return ""

    def _list(self, node: cst.Call, data: cst.List | cst.Tuple, dtype: cst.BaseExpression | None, extra: bool) -> None:
        if not data.elements:
            return
        tensors = [isinstance(e, cst.Element) and self.values.is_tensor(e.value) for e in data.elements]
        if not any(tensors):
            return  # Python numbers (or values nothing shows to be tensors): a constant
        message = (
            f"`{self.ctx.code(node)}` in {self.ctx.where()} builds a tensor from a list of tensors: STRICT "
            'syntax and export reject it ("the inputs should be constant"); use `ops.stack`'
        )
        if not all(tensors) or extra:
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
