from __future__ import annotations

import libcst as cst
from libcst.helpers import parse_template_expression

from graphmend.messages import explains
from graphmend.names import NUMPY_DTYPES
from graphmend.numpy_calls import (
    FAILS_ON_TENSORS,
    NUMPY_CONSTRUCTORS,
    NUMPY_TO_OPS,
    Outermost,
    Wrapped,
    twin_call,
    twin_safety,
)
from graphmend.rule import Rule
from graphmend.targets import EXPORT, STRICT, breaks
from graphmend.tree import find

_SEQUENCE_FIRST = {"concatenate", "stack"}  # the ops functions that take a list of tensors
_NOT_COMPUTATION = {"finfo", "iinfo", "dtype", "result_type", "can_cast", "promote_types", "issubdtype"}


class NumpyCall(Rule):
    """Host numpy functions applied to tensors in graph code → the `ops` function computing the same thing.

    What it does:
        Reports calls of host numpy (`np.*`, however imported; never `mindspore.numpy`) inside `construct`
        and other graph code when an argument is a tensor, and names the `ops` function to use instead.
        Where the call is wrapped back into a tensor — `Tensor(np.f(t, ...))`, `Tensor(np.f(t), dtype)`,
        `Tensor.from_numpy(...)` — and `np.f` is in the table `graphmend.numpy_calls.NUMPY_TO_OPS`
        (reductions with `axis`/`keepdims`, elementwise math, `concatenate`/`stack`, `where`, `clip`,
        `transpose`/`reshape`/`tile`, `matmul`…), the whole expression becomes `ops.f(t, ...)` (with
        `.astype(dtype)` when the wrapper names one). A bare numpy call is an array and is only reported.
        numpy constructors and `np.random` have their own rules (GM101, GM102). numpy on Python constants
        and on shapes (`np.sqrt(self.dim)`, `np.prod(x.shape[1:])`) is not reported: GRAPH_MODE folds it at
        compile time, and it compiled in every configuration measured, a dynamic batch included.

    Why it breaks graph mode:
        numpy cannot run inside a compiled graph; it needs the tensor's values on the host. LAX syntax runs
        the call through the Python fallback, but STRICT syntax and MindIR export reject it: "the inputs
        should be constant, but found variable" (measured: `Tensor(np.sqrt(x), ms.float32)`). numpy's
        reductions (`np.sum`, `np.mean`, `np.max`…) applied to a tensor fail even in PyNative on
        MindSpore 2.10: numpy calls the tensor's own method with `out=None`, which `Tensor.sum` rejects.

    Example:
        y = Tensor(np.sqrt(x), ms.float32)
        # becomes
        y = ops.sqrt(x).astype(ms.float32)

    Fix safety:
        Each table entry was run in MindSpore 2.10 (PyNative) next to numpy on float32, float16 and int32
        inputs (tests/test_numpy_table.py, one child process for the table). Safe when the entry gave
        numpy's numbers and dtype on all three, or numpy's numbers when the wrapper names the dtype (`sqrt`
        is float64 on int32 in numpy, float32 in `ops`). Unsafe otherwise, and the message says on which
        dtype it differs: on int32 inputs `ops.mean` keeps int32 and `ops.exp`, `ops.log`, `ops.sin`…
        have no CPU kernel, where numpy computes in float64. Entries measured different on float32 are
        not in the table (`np.any`, `np.flip` with an int axis, `np.roll`): reported without a fix.
    """

    CODE = "GM103"
    NAME = "numpy-call"
    BREAKS = breaks(STRICT, EXPORT, note="LAX runs it through the Python fallback")
    EXPLAINS = (
        explains(
            r"When handling script '__call_func_str__\(.*\) in graph mode', the inputs should be "
            r"constant, but found variable",
            STRICT,
            EXPORT,
        ),
    )
    FIX = "safe/unsafe"

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._handled: set[int] = set()
        self._outermost = Outermost()

    def visit_Call(self, node: cst.Call) -> None:
        if id(node) in self._handled:
            return
        match = self._outermost.match(self.ctx, node, self._numpy_call, lambda _: None)
        if match is None:
            return
        call, name, tensor = match.core
        self._handled.update(id(c) for c in find(node, cst.Call))
        twin = NUMPY_TO_OPS.get(name)
        alternative = f"`{twin.ops.removeprefix('mindspore.')}`" if twin else "an `ops` function"
        message = (
            f"host numpy `{self.ctx.code(call.func)}` in {self.ctx.where()} is applied to the tensor "
            f"`{self.ctx.code(tensor)}`: LAX runs it through the Python fallback, but STRICT syntax and MindIR "
            f'export reject it ("the inputs should be constant"); use {alternative}'
        )
        if name in FAILS_ON_TENSORS and call.args and self.values.is_tensor(call.args[0].value):
            message += f" (on a tensor `np.{name}` calls `Tensor.{name}(..., out=None)`, which fails even in PyNative)"
        fix, why_not = self._rewrite(match) if twin else (None, "")
        if fix is None:
            by_hand = (
                f"{why_not}: rewrite by hand" if why_not else "by hand: numpy returns an array with numpy's dtypes"
            )
            self.report(node, f"{message} ({by_hand})")
            return
        replacement, imports, unsafe_why = fix
        self.report(node, message + (f" ({unsafe_why})" if unsafe_why else ""), replacement,
                    "unsafe" if unsafe_why else "safe", imports)  # fmt: skip

    def _numpy_call(self, node: cst.Call) -> tuple[cst.Call, str, cst.BaseExpression] | None:
        name = self._numpy_function(node)
        tensor = self._tensor_argument(node) if name is not None else None
        return None if tensor is None else (node, name, tensor)

    def _rewrite(self, match: Wrapped) -> tuple[tuple[cst.BaseExpression, tuple, str] | None, str]:
        """`Tensor(np.f(t, ...)[, dtype])` → `ops.f(t, ...)[.astype(dtype)]`; a bare numpy call is an array
        and stays one (the code around it decides what it becomes)."""
        call, name, _ = match.core
        if not match.is_tensor:
            return None, "its result is a numpy array, not wrapped in `Tensor(...)`"
        if match.dtype is not None and match.dtype.unknown:
            return None, "its dtype cannot be known here"
        twin = NUMPY_TO_OPS[name]
        first = call.args[0].value if call.args and not call.args[0].keyword else None
        sequence = isinstance(first, (cst.List, cst.Tuple))
        if first is None or sequence != (name in _SEQUENCE_FIRST) or not (sequence or self.values.is_tensor(first)):
            return None, "`ops` takes a tensor where numpy takes any array-like"
        ops_call, needed = twin_call(self.ctx, call, twin)
        if ops_call is None:
            return None, needed
        imports = [needed]
        result: cst.BaseExpression = ops_call
        if match.dtype is not None:
            dtype, dtype_import = match.dtype.expression(self.ctx)
            imports.append(dtype_import)
            result = parse_template_expression("{call}.astype({dtype})", call=ops_call, dtype=dtype)
        fails = name in FAILS_ON_TENSORS
        # the original fails in PyNative too: there are no numbers of numpy's to keep
        return (result, tuple(imports), "" if fails else twin_safety(twin, cast=match.dtype is not None)), ""

    def _numpy_function(self, node: cst.Call) -> str | None:
        func = node.func
        while isinstance(func, cst.Attribute):
            func = func.value
        if not isinstance(func, cst.Name):
            return None  # a method of a result: `np.sqrt(x).sum()` is reported at `np.sqrt`
        for qualified in self.ctx.names(node.func):
            if not qualified.startswith("numpy."):
                continue
            name = qualified.removeprefix("numpy.")
            skip = name in NUMPY_CONSTRUCTORS or name in NUMPY_DTYPES or name in _NOT_COMPUTATION
            if skip or name.startswith("random.") or "." in name:
                return None
            return name
        return None

    def _tensor_argument(self, node: cst.Call) -> cst.BaseExpression | None:
        """The first argument (or part of one) that is a tensor; shapes (`x.shape[1:]`) are not."""
        for arg in node.args:
            found = self._find_tensor(arg.value)
            if found is not None:
                return found
        return None

    def _find_tensor(self, node: cst.CSTNode) -> cst.BaseExpression | None:
        if isinstance(node, cst.BaseExpression):
            if self.values.is_shape(node):
                return None
            if self.values.is_tensor(node):
                return node
        if isinstance(node, cst.Attribute):
            return None  # `x.dtype`, `x.ndim`: metadata of a tensor, not the tensor
        children = node.args if isinstance(node, cst.Call) else node.children  # `x.numel()` is an int
        for child in children:
            found = self._find_tensor(child)
            if found is not None:
                return found
        return None
