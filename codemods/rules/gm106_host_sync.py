from __future__ import annotations

import libcst as cst
from libcst.helpers import parse_template_expression

from graphmend.messages import explains
from graphmend.numpy_calls import (
    FROM_NUMPY,
    NUMPY_TO_OPS,
    Outermost,
    Wrapped,
    argument,
    numpy_function,
    twin_call,
    twin_safety,
)  # fmt: skip
from graphmend.rule import Rule
from graphmend.targets import EXPORT, STRICT, breaks
from graphmend.vocabulary import TENSOR_CONSTRUCTORS


class HostSync(Rule):
    """`.asnumpy()` / `.tolist()` in graph code → keep the tensor on the device.

    What it does:
        Finds `t.asnumpy()` and `t.tolist()` inside `construct` (and other graph code). Where it only
        round-trips back into a tensor — `Tensor(t.asnumpy())`, `Tensor(t.asnumpy(), dtype)`,
        `Tensor.from_numpy(t.asnumpy())` — it rewrites the expression to `t` (or `t.astype(dtype)`). Where
        the copy is fed to a numpy function of the table `graphmend.numpy_calls.NUMPY_TO_OPS` and wrapped
        back (`Tensor(np.max(t.asnumpy(), axis=2))`), the whole expression becomes the `ops` function on
        the tensor (`ops.amax(t, axis=2)`). Other uses are reported: the numpy code that consumes the
        array has to become `ops` calls by hand.

    Why it breaks graph mode:
        `asnumpy` copies a tensor to host memory, which a compiled graph cannot do. LAX syntax runs it
        through the Python fallback, but STRICT syntax and MindIR export reject it: "In JIT strict mode,
        cannot get attributes asnumpy". `.item()`, `float(t)`, `int(t)` and `bool(t)` are
        not reported: MindSpore 2.10 compiles them in every configuration, with the numbers of PyNative
        (measured, tests/test_verify_host_data.py).

    Example:
        y = Tensor(x.asnumpy(), ms.float32) * 2
        peak = Tensor(np.max(x.asnumpy(), axis=2))
        # becomes
        y = x.astype(ms.float32) * 2
        peak = ops.amax(x, axis=2)

    Fix safety:
        Safe: `Tensor(t.asnumpy())` has the values and dtype of `t`, and `Tensor(t.asnumpy(), dtype)` those
        of `t.astype(dtype)`. Arithmetic done in numpy between `asnumpy()` and `Tensor(...)` is not
        rewritten, because numpy's type promotion differs from MindSpore's (`int32 * 2.5` is float64 in
        numpy, float32 in MindSpore). A numpy function fed the copy follows the table's measured safety
        (see GM103): safe where `ops` gave numpy's numbers and dtype on float32, float16 and int32
        inputs (or numpy's numbers, when the wrapper names the dtype), unsafe otherwise (`np.mean` is
        float64 on int32 in numpy, `ops.mean` int32; `ops.log` has no int32 kernel), with the reason in
        the message. `np.finfo(t.asnumpy().dtype)` is reported, not fixed.
    """

    CODE = "GM106"
    NAME = "host-sync"
    BREAKS = breaks(STRICT, EXPORT, note="LAX runs it through the Python fallback")
    EXPLAINS = (explains(r"In JIT strict mode, cannot get attributes asnumpy", STRICT, EXPORT),)
    FIX = "safe/unsafe"

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._handled: set[int] = set()
        self._outermost = Outermost()

    def visit_Call(self, node: cst.Call) -> None:
        if id(node) in self._handled:
            return
        if self._fed_to_numpy(node):
            return
        round_trip = self._round_trip(node)
        if round_trip is not None:
            sync, replacement = round_trip
            self._handled.add(id(sync))
            message = f"{self._message(sync)}; use `{self.ctx.code(replacement)}`"
            self.report(node, message, replacement, "safe")
        elif _is_asnumpy(node) or (_is_tolist(node) and self.values.is_tensor(node.func.value)):  # type: ignore[attr-defined]
            self.report(node, self._message(node) + "; do the numpy work that follows with `ops` calls")

    def _fed_to_numpy(self, node: cst.Call) -> bool:
        """`Tensor(np.f(t.asnumpy(), ...)[, dtype])` → `ops.f(t, ...)[.astype(dtype)]` (the numpy table)."""
        match = self._outermost.match(self.ctx, node, self._numpy_on_host_copy, lambda _: None)
        if match is None:
            return False
        call, syncs = match.core
        self._handled.update(id(sync) for sync in syncs)
        twin = NUMPY_TO_OPS[numpy_function(self.ctx, call)]  # type: ignore[index]
        message = f"{self._message(syncs[0])} and feeds it to `{self.ctx.code(call.func)}`"
        replacement, why_not = self._twin(match)
        if replacement is None:
            self.report(node, f"{message}; use `{twin.ops.removeprefix('mindspore.')}` on the tensor ({why_not})")
            return True
        expression, imports = replacement
        unsafe = twin_safety(twin, cast=match.dtype is not None)
        message += f"; use `{self.ctx.code(expression)}`" + (f" ({unsafe})" if unsafe else "")
        self.report(node, message, expression, "unsafe" if unsafe else "safe", imports)
        return True

    def _numpy_on_host_copy(self, call: cst.Call) -> tuple[cst.Call, list[cst.Call]] | None:
        """A table numpy call whose array arguments are all `t.asnumpy()` (the first one at least)."""
        if numpy_function(self.ctx, call) not in NUMPY_TO_OPS or not call.args or call.args[0].keyword:
            return None
        first = call.args[0].value
        arrays = [e.value for e in first.elements] if isinstance(first, (cst.List, cst.Tuple)) else [first]
        syncs = [a for a in arrays if isinstance(a, cst.Call) and _is_asnumpy(a)]
        if not syncs or len(syncs) != len(arrays):
            return None
        for arg in call.args[1:]:
            if not (_is_host_copy(arg.value) or _is_literal(arg.value)):
                return None  # another numpy array, or a value graphmend cannot see: by hand
        syncs += [a.value for a in call.args[1:] if _is_host_copy(a.value)]
        return call, syncs

    def _twin(self, match: Wrapped) -> tuple[tuple[cst.BaseExpression, tuple] | None, str]:
        call, _ = match.core
        if not match.is_tensor:
            return None, "its result is a numpy array, not wrapped back into `Tensor(...)`: by hand"
        if match.dtype is not None and match.dtype.unknown:
            return None, "its dtype cannot be known here"
        ops_call, needed = twin_call(self.ctx, call, NUMPY_TO_OPS[numpy_function(self.ctx, call)], _device)  # type: ignore[index]
        if ops_call is None:
            return None, needed
        if match.dtype is None:
            return (ops_call, (needed,)), ""
        dtype, dtype_import = match.dtype.expression(self.ctx)
        cast = parse_template_expression("{call}.astype({dtype})", call=ops_call, dtype=dtype)
        return (cast, (needed, dtype_import)), ""

    def _round_trip(self, node: cst.Call) -> tuple[cst.Call, cst.BaseExpression] | None:
        """`Tensor(t.asnumpy()[, dtype])` → (the asnumpy call, `t` or `t.astype(dtype)`)."""
        names = self.ctx.names(node.func)
        if names & TENSOR_CONSTRUCTORS:
            allowed = {"input_data", "dtype"}
        elif FROM_NUMPY in names:
            allowed = {"array"}
        else:
            return None
        keywords = {a.keyword.value for a in node.args if a.keyword}
        if not keywords <= allowed or len(node.args) > len(allowed) or any(a.star for a in node.args):
            return None
        data = node.args[0].value if node.args and not node.args[0].keyword else argument(node, 0, "input_data")
        if not (isinstance(data, cst.Call) and _is_asnumpy(data)):
            return None
        tensor = data.func.value  # type: ignore[attr-defined]
        dtype = argument(node, 1, "dtype") if "dtype" in allowed else None
        if dtype is None:
            return data, tensor
        return data, parse_template_expression("{tensor}.astype({dtype})", tensor=tensor, dtype=dtype)

    def _message(self, sync: cst.Call) -> str:
        return (
            f"`{self.ctx.code(sync)}` in {self.ctx.where()} copies a tensor to the host: LAX runs it through "
            'the Python fallback, but STRICT syntax and MindIR export reject it ("cannot get attributes '
            'asnumpy")'
        )


def _is_asnumpy(node: cst.Call) -> bool:
    func = node.func
    return isinstance(func, cst.Attribute) and func.attr.value == "asnumpy" and not node.args


def _is_tolist(node: cst.Call) -> bool:
    """`t.tolist()` calls `asnumpy` (the same STRICT error, measured); numpy arrays have it too."""
    func = node.func
    return isinstance(func, cst.Attribute) and func.attr.value == "tolist" and not node.args


def _is_host_copy(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Call) and _is_asnumpy(node)


def _is_literal(node: cst.BaseExpression) -> bool:
    """A number, `None`, a bool, or a tuple of those (an axis, a shape, a bound)."""
    if isinstance(node, cst.UnaryOperation):
        return _is_literal(node.expression)
    if isinstance(node, cst.Tuple | cst.List):
        return all(_is_literal(e.value) for e in node.elements)
    return isinstance(node, cst.Integer | cst.Float) or (
        isinstance(node, cst.Name) and node.value in ("None", "True", "False")
    )


def _device(value: cst.BaseExpression) -> cst.BaseExpression:
    """`t.asnumpy()` → `t`, in a list of arrays too; anything else as it is."""
    if _is_host_copy(value):
        return value.func.value  # type: ignore[attr-defined]
    if isinstance(value, cst.List | cst.Tuple):
        return value.with_changes(elements=[e.with_changes(value=_device(e.value)) for e in value.elements])
    return value
