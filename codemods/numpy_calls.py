"""Matching host numpy calls in graph code, and the `Tensor(...)` / `.astype(...)` wrappers around them.

GM101 (constructors) and GM102 (`np.random`) rewrite a whole expression such as
`ms.Tensor(np.ones(s), ms.float32).astype(ms.float16)` into one `ops` call: `match_wrapped` finds that
expression once for both, with one list of wrappers (`Tensor`, `ms.tensor`, `Tensor.from_numpy`);
`DType` says what dtype it ends up with; `Outermost` reports each such expression once. Layout methods
between the numpy call and its wrapper (`Tensor(np.eye(k).flatten().astype(np.float32))`) are part of the
expression: `reapply` puts them back on the `ops` call, so no `Tensor(...)` is left around a tensor.
`bind` and `argument` read a call's arguments by name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

import libcst as cst

from codemods.builders import atom
from codemods.names import mindspore_dtype_name, numpy_dtype_name
from codemods.vocabulary import TENSOR_CONSTRUCTORS

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
    if any(a.keyword is not None or a.star for a in node.args):
        return False
    return bool(node.args) if func.attr.value == "reshape" else not node.args
