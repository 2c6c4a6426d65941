from __future__ import annotations

from dataclasses import dataclass

import libcst as cst
from libcst.helpers import parse_template_expression

from graphmend.messages import explains
from graphmend.numpy_calls import NUMPY_CONSTRUCTORS, DType, Outermost, Wrapped, bind, numpy_function, wrapper_around
from graphmend.rule import Rule
from graphmend.targets import DYNAMIC, breaks


class NumpyConstructor(Rule):
    """Host numpy array constructors in graph code → the `ops` constructor with the same dtype.

    What it does:
        Finds `np.ones/zeros/full/empty/eye/arange/linspace/ones_like/zeros_like/full_like` inside
        `construct` (and other graph code) — bare, or wrapped in `Tensor(...)`, `ms.Tensor(..., dtype=...)`,
        `Tensor.from_numpy(...)`, with `.astype(...)`, `.flatten()` or `.reshape(...)` between them — and
        rewrites the whole expression to one `ops` call (followed by the same `.flatten()`/`.reshape(...)`), so
        no `Tensor(...)` is left around a tensor and the dtype the wrapper asks for is kept.
        `np` means host numpy however it is imported (`import numpy as onp`); `mindspore.numpy` is
        graph-native and never touched. A wrapped constructor whose arguments are all known before any
        input (number literals, the Cell's config numbers such as `self.k`, a rank such as `x.ndim`:
        `Tensor(np.zeros((4, self.k)), ms.float32)`), and a bare one of a rank (`np.arange(x.ndim)`, the
        axes of a reduction), are left alone: each is a constant in every configuration, a dynamic batch
        included (measured on real Cells, bench/realcells: mindcv's `PositionalEncodingFourier` runs in
        every mode as written; tests/verify_rules/host_data/gm101_static_rank.py: mindnlp's hypercomplex
        batch norm's axes from `np.arange(ndim)`), so a finding there would change nothing. A bare
        constant of other numbers is still rewritten: its neighbours are, and numpy left to meet their
        tensors (`np.ones((26, 26)) - ops.eye(n, n)`, mindocr's ABINet) fails in every mode (measured).

    Why it breaks graph mode:
        numpy runs on the host, so GRAPH_MODE must fold the call into a constant. With static shapes it
        can: MindSpore 2.10 (numpy 1.26) compiles a batch-sized `np.ones` mask in GRAPH, STRICT and a
        static-shape export, with the numbers of PyNative. With a dynamic batch there is no constant to
        fold and compiling fails ("'int' object is not subscriptable", or "the inputs should be
        constant, but found variable" under STRICT), and older numpy 1.x releases failed even with
        static shapes ("The name '_ones_with_like' is not defined"). `ops.ones(...)` is a graph node
        that compiles in every configuration.

    Example:
        img_atts = ms.Tensor(np.ones((batch_size, n)), dtype=ms.float32)
        # becomes
        img_atts = ops.ones((batch_size, n), ms.float32)

    Fix safety:
        Safe: the values and the dtype stay identical. The dtype is always written out, because numpy and
        `ops` disagree on defaults: numpy's float64 stays float64 unless the wrapper names a dtype, and
        `np.full(s, 3)` stays int64. `np.empty` becomes `ops.zeros` (its values were undefined). A call
        whose dtype cannot be known (a variable), or with arguments `ops` has no equal for (`np.eye(k=1)`,
        `np.linspace(endpoint=False)`), is reported without a fix, and so is a call inside `Tensor(...)` through
        other numpy work (`Tensor(np.ones(s).sum(0))`): rewriting the call alone would leave `Tensor` around a
        tensor, which STRICT rejects. Unsafe when the expression holds a
        comment: the fix would drop it.
    """

    CODE = "GM101"
    NAME = "numpy-constructor"
    BREAKS = breaks(DYNAMIC, note="static GRAPH, STRICT and export fold it into a constant")
    EXPLAINS = (
        explains(r"'int' object is not subscriptable", DYNAMIC),
        # `np.zeros((batch_size, max_len))` of a dynamic batch (mindnlp's CMRC2018Loss in
        # bench/realcells/results.json)
        explains(r"Failed to infer for primitive:DtypeToEnum", DYNAMIC),
    )
    FIX = "safe/unsafe"

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._outermost = Outermost()

    def visit_Call(self, node: cst.Call) -> None:
        match = self._outermost.match(
            self.ctx, node, lambda call: _Constructor.of(self.ctx, call), lambda ctor: ctor.dtype
        )
        if match is None:
            return
        ctor = match.core
        args = list(ctor.args.values())
        if args and all(self.values.is_static(v) for v in args):
            # `Tensor(np.zeros((4, self.dim)), ms.float32)`, `np.arange(x.ndim)`: a constant in every
            # configuration, even a dynamic batch (measured: bench/realcells, PositionalEncodingFourier;
            # tests/verify_rules/host_data/gm101_static_rank.py): nothing breaks. A bare constant of other
            # numbers is rewritten with its neighbours: left numpy, `np.ones((26, 26)) - ops.eye(n, n)` fails
            # in every mode (mindocr's ABINet location mask, golden/GM101/static_arguments.py)
            if match.is_tensor or any(self.values.is_rank(v) for v in args):
                return
        spelled = self.ctx.code(ctor.call.func)
        message = (
            f"host numpy `{spelled}` in {self.ctx.where()} is folded into a constant: with a dynamic batch "
            f"there is none to fold and compiling fails; use `ops.{NUMPY_CONSTRUCTORS[ctor.name]}`"
        )
        replacement, why_not = self._rewrite(match)
        wrapper = None if match.is_tensor else wrapper_around(self.ctx, node)
        if wrapper is not None:
            # `ops` inside it would leave `Tensor(<tensor>)`, which STRICT rejects (GM105)
            replacement, why_not = None, f"inside `{self.ctx.code(wrapper.func)}(...)` through other numpy work"
        if replacement is None:
            self.report(node, f"{message} ({why_not}: rewrite by hand)")
        else:
            self.report(node, message, replacement[0], "safe", replacement[1])

    # -- rewriting ----------------------------------------------------------------------------------

    def _rewrite(
        self, match: Wrapped[_Constructor]
    ) -> tuple[tuple[cst.BaseExpression, tuple], None] | tuple[None, str]:
        ctor = match.core
        if ctor.unsupported:
            return None, ctor.unsupported
        dtype = match.dtype
        if dtype is None or dtype.unknown:
            if ctor.name not in _LIKE:
                return None, "its dtype cannot be known here"
            dtype = None  # *_like keeps the dtype of its argument, in numpy and in ops alike
        func, needed = self.ctx.bindings.reference(f"mindspore.ops.{NUMPY_CONSTRUCTORS[ctor.name]}")
        imports = [needed]
        values = dict(ctor.args, func=func)
        if dtype is not None:
            values["dtype"], dtype_import = dtype.expression(self.ctx)
            imports.append(dtype_import)
        template = _template(ctor, dtype)
        used = {key: value for key, value in values.items() if "{" + key + "}" in template}
        return (match.reapply(parse_template_expression(template, **used)), tuple(imports)), None


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


def _template(ctor: _Constructor, dtype: DType | None) -> str:
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
class _Constructor:
    call: cst.Call
    name: str
    args: dict[str, cst.BaseExpression]
    dtype: DType | None
    unsupported: str = ""  # why the call cannot be rewritten

    @classmethod
    def of(cls, ctx, call: cst.Call) -> _Constructor | None:
        name = numpy_function(ctx, call)
        if name not in NUMPY_CONSTRUCTORS:
            return None
        args, problem = bind(call, _PARAMS[name])
        if not problem:
            problem = _unsupported(ctx, name, args)
        dtype = DType.of(ctx, args.pop("dtype"), allow_opaque=False) if "dtype" in args else _default(ctx, name, args)
        for key in (*_HARMLESS, *_DEFAULT_ONLY.get(name, ())):
            args.pop(key, None)
        return cls(call, name, args, dtype, problem)


def _unsupported(ctx, name: str, args: dict[str, cst.BaseExpression]) -> str:
    for key, default in _DEFAULT_ONLY.get(name, {}).items():
        if key in args and ctx.code(args[key]) != default:
            return f"`{key}={ctx.code(args[key])}` has no ops equivalent"
    if name == "arange" and "step" in args and "start" not in args:
        return "step without start"
    return ""


def _default(ctx, name: str, args: dict[str, cst.BaseExpression]) -> DType | None:
    """numpy's dtype when none is given (float64 mostly; ints stay int64)."""
    if name in _LIKE:
        return None
    if name == "full":
        return _literal_dtype(ctx, [args.get("fill_value")])
    if name == "arange":
        return _literal_dtype(ctx, [args.get(k) for k in ("start", "stop", "step")])
    return DType(name="float64")


def _literal_dtype(ctx, values: list[cst.BaseExpression | None]) -> DType:
    kinds = {_literal_kind(ctx, v) for v in values if v is not None}
    if "float" in kinds:
        return DType(name="float64")
    if kinds == {"int"}:
        return DType(name="int64")
    if kinds == {"bool"}:
        return DType(name="bool")
    return DType(unknown=True)


def _literal_kind(ctx, node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.UnaryOperation):
        return _literal_kind(ctx, node.expression)
    if isinstance(node, cst.Integer):
        return "int"
    if isinstance(node, cst.Float):
        return "float"
    if isinstance(node, cst.Name) and node.value in ("True", "False"):
        return "bool"
    if ctx.values.is_int(node):  # `x.shape[0]`, `len(x)`: Python ints in graph code
        return "int"
    return None
