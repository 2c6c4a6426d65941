from __future__ import annotations

import libcst as cst
from libcst.helpers import parse_template_expression

from codemods.numpy_calls import FROM_NUMPY, argument
from codemods.rule import Rule
from codemods.targets import EXPORT, STRICT, breaks
from codemods.vocabulary import TENSOR_CONSTRUCTORS


class HostSync(Rule):
    """`.asnumpy()` / `.tolist()` in graph code → keep the tensor on the device.

    What it does:
        Finds `t.asnumpy()` and `t.tolist()` inside `construct` (and other graph code). Where it only
        round-trips back into a tensor — `Tensor(t.asnumpy())`, `Tensor(t.asnumpy(), dtype)`,
        `Tensor.from_numpy(t.asnumpy())` — it rewrites the expression to `t` (or `t.astype(dtype)`). Other
        uses are reported: the numpy code that consumes the array has to become `ops` calls by hand.

    Why it breaks graph mode:
        `asnumpy` copies a tensor to host memory, which a compiled graph cannot do. LAX syntax runs it
        through the Python fallback, but STRICT syntax and MindIR export reject it: "In JIT strict mode,
        cannot get attributes asnumpy". `.item()`, `float(t)`, `int(t)` and `bool(t)` are
        not reported: MindSpore 2.10 compiles them in every configuration, with the numbers of PyNative
        (measured, tests/test_verify_host_data.py).

    Example:
        y = Tensor(x.asnumpy(), ms.float32) * 2
        # becomes
        y = x.astype(ms.float32) * 2

    Fix safety:
        Safe: `Tensor(t.asnumpy())` has the values and dtype of `t`, and `Tensor(t.asnumpy(), dtype)` those
        of `t.astype(dtype)`. Arithmetic done in numpy between `asnumpy()` and `Tensor(...)` is not
        rewritten, because numpy's type promotion differs from MindSpore's (`int32 * 2.5` is float64 in
        numpy, float32 in MindSpore).
    """

    CODE = "GM106"
    NAME = "host-sync"
    BREAKS = breaks(STRICT, EXPORT, note="LAX runs it through the Python fallback")

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._handled: set[int] = set()

    def visit_Call(self, node: cst.Call) -> None:
        if id(node) in self._handled:
            return
        round_trip = self._round_trip(node)
        if round_trip is not None:
            sync, replacement = round_trip
            self._handled.add(id(sync))
            message = f"{self._message(sync)}; use `{self.ctx.code(replacement)}`"
            self.report(node, message, replacement, "safe")
        elif _is_asnumpy(node) or (_is_tolist(node) and self.values.is_tensor(node.func.value)):  # type: ignore[attr-defined]
            self.report(node, self._message(node) + "; do the numpy work that follows with `ops` calls")

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
