from __future__ import annotations

from dataclasses import dataclass

import libcst as cst
from libcst.helpers import parse_template_expression

from codemods.names import mindspore_dtype_name, numpy_dtype_name
from codemods.rule import Rule


class NumpyConstructor(Rule):
    """Host numpy array constructors in graph code → the `ops` constructor with the same dtype.

    What it does:
        Finds `np.ones/zeros/full/empty/eye/arange/linspace/ones_like/zeros_like/full_like` inside
        `construct` (and other graph code) — bare, or wrapped in `Tensor(...)`, `ms.Tensor(..., dtype=...)`,
        `Tensor.from_numpy(...)`, with `.astype(...)` — and rewrites the whole expression to one `ops` call.
        `np` means host numpy however it is imported (`import numpy as onp`); `mindspore.numpy` is
        graph-native and never touched.

    Why it breaks graph mode:
        numpy runs on the host, so GRAPH_MODE must fold the call into a constant. With a dynamic batch
        there is no constant to fold ("the inputs should be constant, but found variable"), STRICT syntax
        and MindIR export reject it, and with numpy 1.x `np.ones/full/eye` can fail even with static
        shapes ("The name '_ones_with_like' is not defined"). `ops.ones(...)` is a graph node (CATALOG.md A).

    Example:
        img_atts = ms.Tensor(np.ones((batch_size, n)), dtype=ms.float32)
        # becomes
        img_atts = ops.ones((batch_size, n), ms.float32)

    Fix safety:
        Safe: the values and the dtype stay identical. The dtype is always written out, because numpy and
        `ops` disagree on defaults: numpy's float64 stays float64 unless the wrapper names a dtype, and
        `np.full(s, 3)` stays int64. `np.empty` becomes `ops.zeros` (its values were undefined). A call
        whose dtype cannot be known (a variable), or with arguments `ops` has no equal for (`np.eye(k=1)`,
        `np.linspace(endpoint=False)`), is reported without a fix.
    """

    CODE = "GM101"
    NAME = "numpy-constructor"
    BREAKS = "dynamic, STRICT, export (and GRAPH with numpy 1.x for ones/full/eye)"

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._handled: set[int] = set()  # inner calls of an expression already reported

    def visit_Call(self, node: cst.Call) -> None:
        if id(node) in self._handled:
            return
        match = self._match(node)
        if match is None:
            return
        self._handled.update(id(n) for n in match.calls)
        ctor = match.ctor
        spelled = self.ctx.code(ctor.call.func)
        message = (
            f"host numpy `{spelled}` in {self.ctx.where()} is folded into a constant: it fails with a dynamic "
            f"batch, under STRICT and in export; use `ops.{_TARGET[ctor.name]}`"
        )
        replacement, why_not = self._rewrite(match)
        if replacement is None:
            self.report(node, f"{message} ({why_not}: rewrite by hand)")
        else:
            self.report(node, message, replacement[0], "safe", replacement[1])

    # -- matching -----------------------------------------------------------------------------------

    def _match(self, node: cst.Call) -> _Match | None:
        """The outermost constructor expression starting at `node`: astype(Tensor(np.X(...)))."""
        if _is_astype(node):
            inner = node.func.value  # type: ignore[attr-defined]
            match = self._match(inner) if isinstance(inner, cst.Call) else None
            if match is None:
                return None
            dtype = _DType.of(self.ctx, node.args[0].value, allow_opaque=match.is_tensor)
            return _Match(match.ctor, dtype, match.is_tensor, (*match.calls, node))
        names = self.ctx.names(node.func)
        if names & {"mindspore.Tensor", "mindspore.Tensor.from_numpy"}:
            data = _argument(node, 0, "input_data")
            match = self._match(data) if isinstance(data, cst.Call) else None
            if match is None or match.is_tensor:
                return None
            dtype_node = _argument(node, 1, "dtype") if "mindspore.Tensor" in names else None
            dtype = _DType.of(self.ctx, dtype_node, allow_opaque=True) if dtype_node else match.dtype
            return _Match(match.ctor, dtype, True, (*match.calls, node))
        ctor = _Constructor.of(self.ctx, node)
        if ctor is None:
            return None
        return _Match(ctor, ctor.dtype, False, (node,))

    # -- rewriting ----------------------------------------------------------------------------------

    def _rewrite(self, match: _Match) -> tuple[tuple[cst.BaseExpression, tuple], None] | tuple[None, str]:
        ctor = match.ctor
        if ctor.unsupported:
            return None, ctor.unsupported
        dtype = match.dtype
        if dtype is None or dtype.unknown:
            if ctor.name not in _LIKE:
                return None, "its dtype cannot be known here"
            dtype = None  # *_like keeps the dtype of its argument, in numpy and in ops alike
        func, needed = self.ctx.bindings.reference(f"mindspore.ops.{_TARGET[ctor.name]}")
        imports = [needed]
        values = dict(ctor.args, func=func)
        if dtype is not None:
            values["dtype"], dtype_import = dtype.expression(self.ctx)
            imports.append(dtype_import)
        template = _template(ctor, dtype)
        used = {key: value for key, value in values.items() if "{" + key + "}" in template}
        return (parse_template_expression(template, **used), tuple(imports)), None


# numpy constructor → the ops function that replaces it
_TARGET = {
    "ones": "ones", "zeros": "zeros", "empty": "zeros", "full": "full", "eye": "eye",
    "arange": "arange", "linspace": "linspace",
    "ones_like": "ones_like", "zeros_like": "zeros_like", "full_like": "full_like",
}  # fmt: skip
_LIKE = {"ones_like", "zeros_like", "full_like"}

# numpy's parameters, in positional order; the ones graphmend cannot carry over must keep these values
_PARAMS = {
    "ones": ("shape", "dtype", "order"),
    "zeros": ("shape", "dtype", "order"),
    "empty": ("shape", "dtype", "order"),
    "full": ("shape", "fill_value", "dtype", "order"),
    "eye": ("N", "M", "k", "dtype", "order"),
    "arange": ("start", "stop", "step", "dtype"),
    "linspace": ("start", "stop", "num", "endpoint", "retstep", "dtype", "axis"),
    "ones_like": ("a", "dtype", "order", "subok", "shape"),
    "zeros_like": ("a", "dtype", "order", "subok", "shape"),
    "full_like": ("a", "fill_value", "dtype", "order", "subok", "shape"),
}
_HARMLESS = {"order": None, "subok": None}  # any value: no effect on a fresh array's numbers
_DEFAULT_ONLY = {  # arguments ops cannot express: only numpy's default is accepted
    "eye": {"k": "0"},
    "linspace": {"endpoint": "True", "retstep": "False", "axis": "0"},
    **{like: {"shape": "None"} for like in ("ones_like", "zeros_like", "full_like")},
}


def _template(ctor: _Constructor, dtype: _DType | None) -> str:
    a = ctor.args
    name = ctor.name
    if name in ("ones", "zeros", "empty"):
        return "{func}({shape}, {dtype})"
    if name == "full":
        return "{func}({shape}, {fill_value}, dtype={dtype})"
    if name == "eye":
        return "{func}({N}, {M}, {dtype})" if "M" in a else "{func}({N}, {N}, {dtype})"
    if name == "arange":
        bounds = ", ".join("{" + k + "}" for k in ("start", "stop", "step") if k in a)
        return "{func}(" + bounds + ", dtype={dtype})"
    if name == "linspace":
        # ops.linspace always returns float32; cast only when numpy's dtype was another one
        base = "{func}({start}, {stop}, {num})"
        return base if dtype is not None and dtype.name == "float32" else base + ".astype({dtype})"
    fill = ", {fill_value}" if name == "full_like" else ""
    return "{func}({a}" + fill + (")" if dtype is None else ", dtype={dtype})")


@dataclass(frozen=True)
class _DType:
    """A dtype as far as graphmend can tell: a numpy/MindSpore name, an opaque MindSpore expression, or unknown."""

    name: str | None = None  # "float32"
    node: cst.BaseExpression | None = None  # a MindSpore dtype expression to reuse as written
    unknown: bool = False

    @classmethod
    def of(cls, ctx, node: cst.BaseExpression | None, allow_opaque: bool) -> _DType:
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
        if self.node is not None:
            return self.node, None
        return ctx.bindings.reference(f"mindspore.{self.name}")


@dataclass(frozen=True)
class _Constructor:
    call: cst.Call
    name: str
    args: dict[str, cst.BaseExpression]
    dtype: _DType | None
    unsupported: str = ""  # why the call cannot be rewritten

    @classmethod
    def of(cls, ctx, call: cst.Call) -> _Constructor | None:
        names = [n.removeprefix("numpy.") for n in ctx.names(call.func) if n.startswith("numpy.")]
        if not names or names[0] not in _TARGET:
            return None
        name = names[0]
        args, problem = _bind(call, _PARAMS[name])
        if not problem:
            problem = _unsupported(ctx, name, args)
        dtype = _DType.of(ctx, args.pop("dtype"), allow_opaque=False) if "dtype" in args else _default(name, args)
        for key in (*_HARMLESS, *_DEFAULT_ONLY.get(name, ())):
            args.pop(key, None)
        return cls(call, name, args, dtype, problem)


def _bind(call: cst.Call, params: tuple[str, ...]) -> tuple[dict[str, cst.BaseExpression], str]:
    args: dict[str, cst.BaseExpression] = {}
    for i, arg in enumerate(call.args):
        if arg.star:
            return args, "star arguments"
        key = arg.keyword.value if arg.keyword else (params[i] if i < len(params) else None)
        if key not in params:
            return args, f"argument {key or i + 1} has no ops equivalent"
        args[key] = arg.value
    return args, ""


def _unsupported(ctx, name: str, args: dict[str, cst.BaseExpression]) -> str:
    for key, default in _DEFAULT_ONLY.get(name, {}).items():
        if key in args and ctx.code(args[key]) != default:
            return f"`{key}={ctx.code(args[key])}` has no ops equivalent"
    if name == "arange" and "step" in args and "start" not in args:
        return "step without start"
    return ""


def _default(name: str, args: dict[str, cst.BaseExpression]) -> _DType | None:
    """numpy's dtype when none is given (float64 mostly; ints stay int64)."""
    if name in _LIKE:
        return None
    if name == "full":
        return _literal_dtype([args.get("fill_value")])
    if name == "arange":
        return _literal_dtype([args.get(k) for k in ("start", "stop", "step")])
    return _DType(name="float64")


def _literal_dtype(values: list[cst.BaseExpression | None]) -> _DType:
    kinds = {_literal_kind(v) for v in values if v is not None}
    if "float" in kinds:
        return _DType(name="float64")
    if kinds == {"int"}:
        return _DType(name="int64")
    if kinds == {"bool"}:
        return _DType(name="bool")
    return _DType(unknown=True)


def _literal_kind(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.UnaryOperation):
        return _literal_kind(node.expression)
    if isinstance(node, cst.Integer):
        return "int"
    if isinstance(node, cst.Float):
        return "float"
    if isinstance(node, cst.Name) and node.value in ("True", "False"):
        return "bool"
    if _is_shape_item(node):
        return "int"
    return None


def _is_shape_item(node: cst.BaseExpression) -> bool:
    """`x.shape[0]` and `len(x)`: Python ints in graph code."""
    if isinstance(node, cst.Subscript):
        return isinstance(node.value, cst.Attribute) and node.value.attr.value == "shape"
    return isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "len"


def _argument(call: cst.Call, position: int, keyword: str) -> cst.BaseExpression | None:
    for i, arg in enumerate(call.args):
        if (arg.keyword is None and not arg.star and i == position) or (
            arg.keyword is not None and arg.keyword.value == keyword
        ):
            return arg.value
    return None


def _is_astype(node: cst.Call) -> bool:
    return (
        isinstance(node.func, cst.Attribute)
        and node.func.attr.value == "astype"
        and len(node.args) == 1
        and node.args[0].keyword is None
    )


@dataclass(frozen=True)
class _Match:
    ctor: _Constructor
    dtype: _DType | None
    is_tensor: bool  # wrapped in Tensor(...) already
    calls: tuple[cst.Call, ...]  # every call the expression is made of
