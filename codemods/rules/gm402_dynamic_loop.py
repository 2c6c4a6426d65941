from __future__ import annotations

import libcst as cst

from graphmend.messages import explains
from graphmend.rule import Rule
from graphmend.targets import DYNAMIC, breaks
from graphmend.values import Dim
from graphmend.vocabulary import CASTS, ELEMENTWISE, TENSOR_CONSTRUCTORS

# methods that keep dimension 0 of their receiver
_SHAPE_KEEPING = ELEMENTWISE | CASTS | {"cumsum", "cumprod", "astype", "to"}


class DynamicLoop(Rule):
    """Loops and comprehensions whose trip count is a tensor's dimension (report only).

    What it does:
        Reports `for`, `while` and comprehensions in graph code that run once per element of a tensor
        dimension: `for i in range(x.shape[0])`, `range(len(x))` with `x` a tensor, `[f(r) for r in x]`
        (iterating a tensor walks dimension 0), `enumerate(x)`/`zip(x, y)`, `ops.unstack(x, axis=k)`,
        names unpacked from `x.shape`, and `while i < x.shape[1]`. Loops over `range(self.num_layers)`,
        Python lists, `self.layers` (a CellList) or `x.shape` itself (its length is the rank, a
        constant) are not reported.

        Every dimension is reported, not only the batch: dimension 0 (and iteration over a tensor) with
        "fails with a dynamic batch"; any other dimension with a softer message, because it fails only
        when that dimension is dynamic, and graphmend cannot know which ones are.

    Why it breaks graph mode:
        GRAPH_MODE unrolls a Python loop at compile time, so its trip count must be a constant. With a
        dynamic batch, `ops.stack([x[i] * (i + 1) for i in range(x.shape[0])])` fails ("'TensorType'
        object is not subscriptable") in LAX, STRICT and export. A loop over a static
        dimension compiles, but a MindIR exported with a dynamic batch silently returned the batch size
        of its first call (batch 3 in, batch 2 out). Seed article 002 names such loops as the export
        pitfall that cost an afternoon.

    Example:
        out = ops.stack([x[i] * (i + 1) for i in range(x.shape[0])])
        # vectorize by hand:
        out = x * ops.arange(1, x.shape[0] + 1, dtype=x.dtype).reshape(-1, 1, 1, 1)

    Fix safety:
        No fix: there is no mechanical vectorization. The message says which dimension the loop walks.
    """

    CODE = "GM402"
    NAME = "dynamic-loop"
    BREAKS = breaks(DYNAMIC, note="loops over the batch; any shape-bounded loop in a dynamic export")
    EXPLAINS = (explains(r"'mindspore\._c_expression\.typing\.TensorType' object is not subscriptable", DYNAMIC),)
    FIX = "none"

    def visit_For(self, node: cst.For) -> None:
        self._check(node.iter, "`for` loop", self._iteration_dims(node.iter))

    def visit_CompFor(self, node: cst.CompFor) -> None:
        self._check(node.iter, "comprehension", self._iteration_dims(node.iter))

    def visit_While(self, node: cst.While) -> None:
        if not self.values.depends_on_tensor(node.test):  # a tensor value: GM401's
            self._check(node.test, "`while` loop", self.values.dims(node.test))

    def _check(self, node: cst.BaseExpression, kind: str, dims: list[Dim]) -> None:
        if not dims:
            return
        spelled = " ".join(self.ctx.code(node).split())
        head = f"{kind} {'on' if kind.startswith('`while`') else 'over'} `{spelled}` in {self.ctx.where()}"
        dim = next((d for d in dims if d.index == 0), dims[0])
        which = dim.described()
        if dim.index == 0:
            fails = "it fails with a dynamic batch"
        else:
            fails = (
                "it fails if that dimension is dynamic, and a MindIR exported with a dynamic batch can "
                "silently keep its first batch size"
            )
        message = (
            f"{head} has a trip count set by {which}: graph mode fixes it at compile time, so {fails}; "
            f"vectorize it (one op over the whole dimension)"
        )
        self.report(node, message)

    def _iteration_dims(self, iterable: cst.BaseExpression) -> list[Dim]:
        values = self.values
        if isinstance(iterable, cst.Call):
            func = iterable.func
            args = [a.value for a in iterable.args if a.keyword is None and not a.star]
            if values.is_builtin(func, ("range",)):
                return [d for a in args for d in values.dims(a)]
            if values.is_builtin(func, ("enumerate", "reversed")):
                return [d for a in args[:1] for d in self._iteration_dims(a)]
            if values.is_builtin(func, ("zip",)):  # as long as its shortest argument: a list bounds it
                dims = [self._iteration_dims(a) for a in args]
                return [d for found in dims for d in found] if dims and all(dims) else []
            unstacked = self._unstacked(iterable, args)
            if unstacked is not None:
                return [unstacked]
        if values.is_tensor(iterable) and not self._host_sized(iterable):
            return [Dim(self.ctx.code(iterable), 0)]
        return []

    def _host_sized(self, node: cst.BaseExpression) -> bool:
        """A tensor built from host data (`ms.tensor([0] + counts[:-1]).cumsum(-1)`): Python knows its length."""
        for _ in range(8):
            if isinstance(node, cst.Name):
                bindings = self.values.bindings(node.value)
                if len(bindings) != 1 or bindings[0].kind != "value":
                    return False
                node = bindings[0].node  # type: ignore[assignment]
            elif not isinstance(node, cst.Call):
                return False
            elif self.ctx.names(node.func) & TENSOR_CONSTRUCTORS:
                data = node.args[0].value if node.args and node.args[0].keyword is None else None
                return data is not None and not self.values.dims(data) and not self.values.depends_on_tensor(data)
            elif isinstance(node.func, cst.Attribute) and node.func.attr.value in _SHAPE_KEEPING:
                node = node.func.value
            else:
                return False
        return False

    def _unstacked(self, call: cst.Call, args: list[cst.BaseExpression]) -> Dim | None:
        """`ops.unstack(x, axis=k)` / `ops.unbind(x, k)`: a tuple as long as dimension k of `x`."""
        if self.values.op_name(call.func) not in ("unstack", "unbind") or not args:
            return None
        if not self.values.is_tensor(args[0]):
            return None
        axis = (
            args[1]
            if len(args) > 1
            else next(
                (a.value for a in call.args if a.keyword is not None and a.keyword.value in ("axis", "dim")),
                None,
            )
        )
        if axis is None:
            return Dim(self.ctx.code(args[0]), 0)
        return Dim(self.ctx.code(args[0]), int(axis.value) if isinstance(axis, cst.Integer) else None)
