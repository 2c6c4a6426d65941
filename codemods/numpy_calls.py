"""Matching host numpy calls in graph code, and the `Tensor(...)` / `.astype(...)` wrappers around them.

GM101 (constructors) and GM102 (`np.random`) rewrite a whole expression such as
`ms.Tensor(np.ones(s), ms.float32).astype(ms.float16)` into one `ops` call: `match_wrapped` finds that
expression once for both, with one list of wrappers (`Tensor`, `ms.tensor`, `Tensor.from_numpy`);
`DType` says what dtype it ends up with; `Outermost` reports each such expression once. Layout methods
between the numpy call and its wrapper (`Tensor(np.eye(k).flatten().astype(np.float32))`) are part of the
expression: `reapply` puts them back on the `ops` call, so no `Tensor(...)` is left around a tensor.
`bind` and `argument` read a call's arguments by name. `NUMPY_TO_OPS` is the table of numpy functions
and the `ops` function that computes the same thing (GM103, GM106), each entry measured.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

import libcst as cst

from graphmend import builders
from graphmend.builders import atom
from graphmend.names import mindspore_dtype_name, numpy_dtype_name
from graphmend.vocabulary import TENSOR_CONSTRUCTORS

# numpy constructor → the ops function that replaces it (GM101; GM103 leaves these to it)
NUMPY_CONSTRUCTORS = {
    "ones": "ones", "zeros": "zeros", "empty": "zeros", "full": "full", "eye": "eye",
    "arange": "arange", "linspace": "linspace",
    "ones_like": "ones_like", "zeros_like": "zeros_like", "full_like": "full_like",
}  # fmt: skip
FROM_NUMPY = "mindspore.Tensor.from_numpy"
# what wraps a numpy array into a tensor; the constructors also take a dtype
TENSOR_WRAPPERS = TENSOR_CONSTRUCTORS | {FROM_NUMPY}
# methods with the same meaning on a numpy array and a MindSpore tensor, keeping dtype and values, that
# commute with a cast (measured on MindSpore 2.10: `ops.eye(...).flatten()`, `.reshape(1, 1, 4, 4)`,
# `.reshape((4, 4))` in PyNative, GRAPH, STRICT and a dynamic batch)
LAYOUT_METHODS = frozenset({"flatten", "reshape"})

T = TypeVar("T")


@dataclass(frozen=True)
class DType:
    """A dtype as far as graphmend can tell: a numpy/MindSpore name, an opaque MindSpore expression, or unknown."""

    name: str | None = None  # "float32"
    node: cst.BaseExpression | None = None  # a MindSpore dtype expression to reuse as written
    unknown: bool = False

    @classmethod
    def of(cls, ctx, node: cst.BaseExpression | None, allow_opaque: bool) -> DType:
        if node is None:
            return cls(unknown=True)
        ms_name = mindspore_dtype_name(ctx.qualified, node)
        if ms_name is not None:
            return cls(name=ms_name, node=node)
        np_name = numpy_dtype_name(ctx.qualified, node)
        if np_name is not None:
            return cls(name=np_name)
        # `Tensor(..., dtype=self.dtype)` takes a MindSpore dtype, so `ops.ones(..., self.dtype)` does too
        return cls(node=node) if allow_opaque else cls(unknown=True)

    def expression(self, ctx) -> tuple[cst.BaseExpression, tuple | None]:
        """The dtype as code, and the import it needs (None when it reuses what the code wrote)."""
        if self.node is not None:
            return self.node, None
        return ctx.bindings.reference(f"mindspore.{self.name}")


@dataclass(frozen=True)
class Wrapped(Generic[T]):
    """A numpy call and what wraps it: `astype(Tensor(np.X(...), dtype))`."""

    core: T  # what the rule matched on the numpy call itself
    dtype: DType | None  # the dtype of the whole expression
    is_tensor: bool  # wrapped in Tensor(...) already
    calls: tuple[cst.Call, ...]  # every call the expression is made of, innermost first
    layout: tuple[cst.Call, ...] = ()  # the layout method calls in it (`.flatten()`), innermost first

    def reapply(self, core: cst.BaseExpression) -> cst.BaseExpression:
        """`core` (the rewritten numpy call) with the expression's layout methods called on it again."""
        for method in self.layout:
            core = method.with_changes(func=method.func.with_changes(value=atom(core)))  # type: ignore[attr-defined]
        return core


def match_wrapped(
    ctx, node: cst.Call, core: Callable[[cst.Call], T | None], dtype: Callable[[T], DType | None]
) -> Wrapped[T] | None:
    """The outermost expression starting at `node` around a numpy call `core` accepts."""
    if is_astype(node):
        inner = node.func.value  # type: ignore[attr-defined]
        match = match_wrapped(ctx, inner, core, dtype) if isinstance(inner, cst.Call) else None
        if match is None:
            return None
        cast = DType.of(ctx, node.args[0].value, allow_opaque=match.is_tensor)
        return Wrapped(match.core, cast, match.is_tensor, (*match.calls, node), match.layout)
    if is_layout(node):
        inner = node.func.value  # type: ignore[attr-defined]
        match = match_wrapped(ctx, inner, core, dtype) if isinstance(inner, cst.Call) else None
        if match is None:
            return None
        return Wrapped(match.core, match.dtype, match.is_tensor, (*match.calls, node), (*match.layout, node))
    names = ctx.names(node.func)
    if names & TENSOR_WRAPPERS:
        data = argument(node, 0, "input_data")
        match = match_wrapped(ctx, data, core, dtype) if isinstance(data, cst.Call) else None
        if match is None or match.is_tensor:
            return None
        dtype_node = argument(node, 1, "dtype") if names & TENSOR_CONSTRUCTORS else None
        wrapped = DType.of(ctx, dtype_node, allow_opaque=True) if dtype_node else match.dtype
        return Wrapped(match.core, wrapped, True, (*match.calls, node), match.layout)
    found = core(node)
    return None if found is None else Wrapped(found, dtype(found), False, (node,))


class Outermost:
    """Reports the outermost expression once: `astype(Tensor(np.ones(...)))` is one finding, not three."""

    def __init__(self) -> None:
        self._inside: set[int] = set()  # the calls of an expression already matched

    def match(
        self, ctx, node: cst.Call, core: Callable[[cst.Call], T | None], dtype: Callable[[T], DType | None]
    ) -> Wrapped[T] | None:
        if id(node) in self._inside:
            return None
        found = match_wrapped(ctx, node, core, dtype)
        if found is not None:
            self._inside.update(id(call) for call in found.calls)
        return found


def wrapper_around(ctx, node: cst.CSTNode) -> cst.Call | None:
    """The `Tensor(...)` whose data holds `node` (`Tensor(np.ones(3).sum(0))`), None when there is none."""
    child, parent = node, ctx.parents.get(node)
    while isinstance(parent, cst.BaseExpression | cst.Arg | cst.Element | cst.Index | cst.SubscriptElement):
        if isinstance(parent, cst.Call) and ctx.names(parent.func) & TENSOR_WRAPPERS:
            data = argument(parent, 0, "input_data" if ctx.names(parent.func) & TENSOR_CONSTRUCTORS else "array")
            if isinstance(child, cst.Arg) and child.value is data:
                return parent
        child, parent = parent, ctx.parents.get(parent)
    return None


def numpy_function(ctx, call: cst.Call, prefix: str = "numpy.") -> str | None:
    """`np.ones(...)` → "ones" (with prefix "numpy.random.": `np.random.rand` → "rand"); None otherwise."""
    names = [n.removeprefix(prefix) for n in ctx.names(call.func) if n.startswith(prefix)]
    return names[0] if names else None


def bind(call: cst.Call, params: tuple[str, ...]) -> tuple[dict[str, cst.BaseExpression], str]:
    """The arguments of `call` by parameter name (`params` in positional order), and why not ("" if fine)."""
    args: dict[str, cst.BaseExpression] = {}
    for i, arg in enumerate(call.args):
        if arg.star:
            return args, "star arguments"
        key = arg.keyword.value if arg.keyword else (params[i] if i < len(params) else None)
        if key not in params:
            return args, f"argument {key or i + 1} has no ops equivalent"
        args[key] = arg.value
    return args, ""


def argument(call: cst.Call, position: int, keyword: str) -> cst.BaseExpression | None:
    """The argument at `position` or named `keyword`; None when there is none."""
    for i, arg in enumerate(call.args):
        if (arg.keyword is None and not arg.star and i == position) or (
            arg.keyword is not None and arg.keyword.value == keyword
        ):
            return arg.value
    return None


def is_astype(node: cst.Call) -> bool:
    """`<expr>.astype(dtype)` with one positional argument."""
    return (
        isinstance(node.func, cst.Attribute)
        and node.func.attr.value == "astype"
        and len(node.args) == 1
        and node.args[0].keyword is None
    )


def is_layout(node: cst.Call) -> bool:
    """`<expr>.flatten()` or `<expr>.reshape(...)` with positional arguments only (numpy's `order=` differs)."""
    func = node.func
    if not (isinstance(func, cst.Attribute) and func.attr.value in LAYOUT_METHODS):
        return False
    if not isinstance(func.value, cst.Call):  # `np.reshape(x, s)` is numpy's function, not a method of a result
        return False
    if any(a.keyword is not None or a.star for a in node.args):
        return False
    return bool(node.args) if func.attr.value == "reshape" else not node.args


# -- numpy functions → the ops function that computes the same thing (GM103, GM106) --------------------


@dataclass(frozen=True)
class OpsTwin:
    """The `ops` function computing what a numpy function computes, and how the arguments carry over.

    `numpy` is numpy's parameters in positional order; `ops` the arguments of the ops call, each a numpy
    parameter passed positionally (`a`) or as a keyword (`keep_dims=keepdims`). The positional ones are
    required; a numpy parameter `ops` does not name is accepted only when absent or `None`. `equal_on`
    is what tests/test_numpy_table.py measured on MindSpore 2.10: the input dtypes on which the ops call
    gives numpy's numbers *and* dtype; `values_on` those where only the numbers agree (numpy promoted
    the dtype: int32 → int64/float64). A fix is safe only when both cover every measured dtype.
    """

    ops: str
    numpy: tuple[str, ...]
    positional: tuple[str, ...]
    keywords: tuple[tuple[str, str], ...]  # (ops keyword, numpy parameter)
    equal_on: frozenset[str]
    values_on: frozenset[str]

    def bind(self, call: cst.Call) -> tuple[list[tuple[str | None, cst.BaseExpression]], str]:
        """The ops call's arguments (keyword or None, value) for `call`, or why there are none."""
        args, problem = bind(call, self.numpy)
        if problem:
            return [], problem
        mapped = set(self.positional) | {p for _, p in self.keywords}
        for name, value in args.items():
            if name not in mapped and not (isinstance(value, cst.Name) and value.value == "None"):
                return [], f"`{name}=` has no ops equivalent"
        missing = [p for p in self.positional if p not in args]
        if missing:
            return [], f"`{missing[0]}` must be given for `ops.{self.ops.rsplit('.', 1)[1]}`"
        out: list[tuple[str | None, cst.BaseExpression]] = [(None, args[p]) for p in self.positional]
        out += [(kw, args[p]) for kw, p in self.keywords if p in args]
        return out, ""


MEASURED_DTYPES = ("float32", "float16", "int32")
_ALL = frozenset(MEASURED_DTYPES)
_FLOAT = frozenset({"float32", "float16"})


def _twin(ops: str, numpy: str, ops_args: str, equal_on=_ALL, values_on=None) -> OpsTwin:
    positional, keywords = [], []
    for item in (a.strip() for a in ops_args.split(",")):
        if "=" in item:
            keywords.append(tuple(item.split("=")))
        else:
            positional.append(item)
    values = equal_on if values_on is None else values_on
    return OpsTwin(
        f"mindspore.ops.{ops}", tuple(numpy.replace(" ", "").split(",")), tuple(positional), tuple(keywords),
        frozenset(equal_on), frozenset(values),
    )  # fmt: skip


# Left out, measured: `ops.any` on float32 gives other numbers than `np.any`; `ops.flip` rejects an int
# axis and `ops.roll` has no CPU kernel.
_UNARY = "x, out, where, casting, order, dtype, subok"
_BINARY = "x1, x2, out, where, casting, order, dtype, subok"
NUMPY_TO_OPS: dict[str, OpsTwin] = {
    # reductions
    "sum": _twin("sum", "a, axis, dtype, out, keepdims", "a, dim=axis, keepdim=keepdims"),
    "mean": _twin("mean", "a, axis, dtype, out, keepdims", "a, axis=axis, keep_dims=keepdims", _FLOAT),
    "max": _twin("amax", "a, axis, out, keepdims", "a, axis=axis, keepdims=keepdims"),
    "amax": _twin("amax", "a, axis, out, keepdims", "a, axis=axis, keepdims=keepdims"),
    "min": _twin("amin", "a, axis, out, keepdims", "a, axis=axis, keepdims=keepdims"),
    "amin": _twin("amin", "a, axis, out, keepdims", "a, axis=axis, keepdims=keepdims"),
    "prod": _twin("prod", "a, axis, dtype, out, keepdims", "a, axis=axis, keep_dims=keepdims"),
    "std": _twin("std", "a, axis, dtype, out, ddof, keepdims", "a, axis=axis, ddof=ddof, keepdims=keepdims", _FLOAT),
    "var": _twin("var", "a, axis, dtype, out, ddof, keepdims", "a, axis=axis, ddof=ddof, keepdims=keepdims", _FLOAT),
    "all": _twin("all", "a, axis, out, keepdims", "a, axis=axis, keep_dims=keepdims"),
    "argmax": _twin("argmax", "a, axis, out, keepdims", "a, dim=axis, keepdim=keepdims"),
    "argmin": _twin("argmin", "a, axis, out, keepdims", "a, axis=axis, keepdims=keepdims", frozenset(), _ALL),
    "cumsum": _twin("cumsum", "a, axis, dtype, out", "a, axis", _FLOAT, _ALL),
    # elementwise
    "abs": _twin("abs", _UNARY, "x"),
    "absolute": _twin("abs", _UNARY, "x"),
    "sqrt": _twin("sqrt", _UNARY, "x", _FLOAT, _ALL),
    "exp": _twin("exp", _UNARY, "x", _FLOAT),
    "log": _twin("log", _UNARY, "x", _FLOAT),
    "log1p": _twin("log1p", _UNARY, "x", _FLOAT),
    "log2": _twin("log2", _UNARY, "x", _FLOAT),
    "expm1": _twin("expm1", _UNARY, "x", _FLOAT),
    "sin": _twin("sin", _UNARY, "x", _FLOAT),
    "cos": _twin("cos", _UNARY, "x", _FLOAT),
    "tanh": _twin("tanh", _UNARY, "x", _FLOAT),
    "floor": _twin("floor", _UNARY, "x", _FLOAT),
    "ceil": _twin("ceil", _UNARY, "x", _FLOAT),
    "sign": _twin("sign", _UNARY, "x"),
    "square": _twin("square", _UNARY, "x"),
    "negative": _twin("neg", _UNARY, "x"),
    "reciprocal": _twin("reciprocal", _UNARY, "x", _FLOAT),
    "round": _twin("round", "a, decimals, out", "a, decimals=decimals"),
    "isnan": _twin("isnan", _UNARY, "x"),
    "isinf": _twin("isinf", _UNARY, "x", _FLOAT),
    "isfinite": _twin("isfinite", _UNARY, "x"),
    "logical_not": _twin("logical_not", _UNARY, "x"),
    "logical_and": _twin("logical_and", _BINARY, "x1, x2"),
    "logical_or": _twin("logical_or", _BINARY, "x1, x2"),
    "maximum": _twin("maximum", _BINARY, "x1, x2"),
    "minimum": _twin("minimum", _BINARY, "x1, x2"),
    "power": _twin("pow", _BINARY, "x1, x2"),
    "clip": _twin("clamp", "a, a_min, a_max, out", "a, min=a_min, max=a_max"),
    "where": _twin("where", "condition, x, y", "condition, x, y"),
    # shapes and layout
    "concatenate": _twin("concat", "arrays, axis, out, dtype, casting", "arrays, axis=axis"),
    "stack": _twin("stack", "arrays, axis, out, dtype, casting", "arrays, axis=axis"),
    "transpose": _twin("transpose", "a, axes", "a, axes"),
    "reshape": _twin("reshape", "a, newshape, order", "a, newshape"),
    "expand_dims": _twin("expand_dims", "a, axis", "a, axis"),
    "squeeze": _twin("squeeze", "a, axis", "a, axis=axis"),
    "tile": _twin("tile", "A, reps", "A, reps"),
    "matmul": _twin("matmul", _BINARY, "x1, x2"),
}
# numpy reductions call the method of a non-array (`np.sum(t, axis=1)` is `t.sum(axis=1, out=None)`),
# which MindSpore's Tensor rejects: applied to a tensor they fail even in PyNative (measured).
FAILS_ON_TENSORS = frozenset({"sum", "mean", "max", "amax", "min", "amin", "prod", "std", "var", "all"})


def twin_call(
    ctx, call: cst.Call, twin: OpsTwin, value: Callable[[cst.BaseExpression], cst.BaseExpression] = lambda v: v
) -> tuple[cst.Call, tuple] | tuple[None, str]:
    """`np.mean(x, axis=1)` → (`ops.mean(x, axis=1)`, its import), or (None, why not); `value` maps each
    argument (GM106 passes `t` for `t.asnumpy()`)."""
    args, problem = twin.bind(call)
    if problem:
        return None, problem
    func, needed = ctx.bindings.reference(twin.ops)
    return builders.call(func, [builders.arg(value(v), kw) for kw, v in args]), needed


def twin_safety(twin: OpsTwin, cast: bool) -> str:
    """Why the twin's result may differ from numpy's ("" when it was measured equal on every dtype);
    `cast`: the expression ends in a dtype of its own, so only the numbers need to agree."""
    differ = [d for d in MEASURED_DTYPES if d not in (twin.values_on if cast else twin.equal_on)]
    if not differ:
        return ""
    which, ops = "/".join(differ), f"`{twin.ops.removeprefix('mindspore.')}`"
    if all(d in twin.values_on for d in differ):
        return f"unsafe: on {which} inputs numpy returns a 64-bit dtype (int64/float64) where {ops} does not"
    return f"unsafe: on {which} inputs {ops} fails or differs from numpy, which computes in float64"
