from __future__ import annotations

from dataclasses import dataclass

import libcst as cst
from libcst.helpers import parse_template_expression

from graphmend.builders import atom
from graphmend.calls import dotted_name
from graphmend.messages import explains
from graphmend.numpy_calls import DType, Outermost, Wrapped, bind, numpy_function, wrapper_around
from graphmend.rule import Rule
from graphmend.targets import DYNAMIC, EXPORT, GRAPH, STRICT, breaks


class NumpyRandom(Rule):
    """Host `np.random.*` draws in graph code → the `ops` random op.

    What it does:
        Finds `np.random.rand/randn/random/random_sample/standard_normal/uniform/normal/randint` inside
        `construct` (and other graph code) — bare, or wrapped in `Tensor(...)`, `Tensor(..., dtype)`,
        `.astype(...)` — and rewrites the expression to `ops.rand`, `ops.randn` or `ops.randint` with the
        dtype the original had. `np.random.normal(m, s, size)` becomes `ops.randn(size, dtype=...) * s + m`
        and `np.random.uniform(a, b, size)` becomes `ops.rand(size, dtype=...) * (b - a) + a`. Other
        `np.random` calls (`choice`, `permutation`, `seed`, a draw without a size) are reported without a fix.

    Why it breaks graph mode:
        numpy runs on the host while the graph is compiled, so the draw is frozen into the graph as a
        constant: with static shapes every call of a GRAPH_MODE Cell, and every run of an exported MindIR,
        returns the same "random" sample, while PyNative draws a new one each call. No error is raised.
        With a dynamic batch it fails: at run time when the batch size changes ("Not same shape in device
        address"), and under STRICT at compile time ("the inputs should be constant").

    Example:
        noise = ms.Tensor(np.random.rand(*shape), ms.float32)
        # becomes
        noise = ops.rand(*shape, dtype=ms.float32)

    Fix safety:
        Unsafe: the fix draws from MindSpore's generator instead of numpy's, so the numbers differ (only
        the shape, the dtype and the distribution are kept), and a seed set with `np.random.seed` no
        longer applies. The dtype is always written out: numpy draws float64 (int64 for `randint`)
        unless a wrapper names another. A bare draw whose result feeds more numpy code (an argument of a
        numpy call, `.item()`) is reported without a fix, because the fix would hand numpy a tensor.
    """

    CODE = "GM102"
    NAME = "numpy-random"
    BREAKS = breaks(
        GRAPH,
        STRICT,
        DYNAMIC,
        EXPORT,
        silent=True,
        note="GRAPH, STRICT and export freeze one sample for every call; a dynamic batch fails",
    )
    EXPLAINS = (explains(r"Not same shape in device address", DYNAMIC),)
    FIX = "unsafe"

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._outermost = Outermost()

    def visit_Call(self, node: cst.Call) -> None:
        match = self._outermost.match(self.ctx, node, lambda call: _Draw.of(self.ctx, call), lambda draw: draw.dtype)
        if match is None:
            return
        draw = match.core
        message = (
            f"host `{self.ctx.code(draw.call.func)}` in {self.ctx.where()} is drawn once, when the graph is "
            "compiled: static graphs and exported MindIR return that same sample on every call (PyNative "
            "draws anew)"
        )
        why_not = draw.unsupported or self._feeds_numpy(node, match)
        if not why_not and match.dtype.unknown:
            why_not = "its dtype cannot be known here"
        if why_not:
            self.report(node, f"{message}; draw it with an `ops` random op ({why_not}: rewrite by hand)")
            return
        replacement, imports = self._rewrite(match)
        target = "ops.randint" if draw.name == "randint" else "ops.randn" if draw.normal else "ops.rand"
        message += f"; use `{target}` (unsafe: MindSpore's random stream, not numpy's)"
        self.report(node, message, replacement, "unsafe", imports)

    def _feeds_numpy(self, node: cst.Call, match: Wrapped[_Draw]) -> str:
        """Why a bare draw cannot become a tensor here ("" when it can)."""
        if match.is_tensor:
            return ""
        wrapper = wrapper_around(self.ctx, node)
        if wrapper is not None:  # an `ops` draw there would leave `Tensor` around a tensor (GM105)
            return f"inside `{self.ctx.code(wrapper.func)}(...)` through other numpy work"
        parent = self.ctx.parents.get(node)
        if isinstance(parent, cst.Attribute):
            return f"the result is used as a numpy array (`.{parent.attr.value}`)"
        call = self.ctx.parents.get(parent) if isinstance(parent, cst.Arg) else None
        if isinstance(call, cst.Call) and self.values.is_host_numpy(call):
            return "the result is passed to numpy"
        return ""

    # -- rewriting ----------------------------------------------------------------------------------

    def _rewrite(self, match: Wrapped[_Draw]) -> tuple[cst.BaseExpression, tuple]:
        draw, dtype = match.core, match.dtype
        op = "randint" if draw.name == "randint" else "randn" if draw.normal else "rand"
        func, needed = self.ctx.bindings.reference(f"mindspore.ops.{op}")
        dtype_node, dtype_import = dtype.expression(self.ctx)
        native = {"float16", "float32", "float64"} if op != "randint" else {"int8", "int16", "int32", "int64"}
        args = list(draw.dims) if draw.dims is not None else [self._size(draw, op)]
        if draw.name == "randint":
            args = [draw.args.get("low_bound") or cst.Integer("0"), draw.args["high_bound"], *args]
        values: dict[str, cst.BaseExpression] = {"func": func, "dtype": dtype_node}
        values.update({f"a{i}": arg for i, arg in enumerate(args)})
        positional = ", ".join(f"{{a{i}}}" for i in range(len(args)))
        template = "{func}(%s, dtype={dtype})" if dtype.name in native else "{func}(%s).astype({dtype})"
        expression = template % positional
        scale, offset = self._affine(draw)
        if scale is not None:
            expression, values["scale"] = f"{expression} * {{scale}}", atom(scale)
        if offset is not None:
            expression, values["offset"] = f"{expression} + {{offset}}", atom(offset)
        return match.reapply(parse_template_expression(expression, **values)), (needed, dtype_import)

    def _size(self, draw: _Draw, op: str) -> cst.BaseExpression:
        size = draw.args["size"]
        if op == "randint" and self.values.is_int(size):
            return cst.Tuple([cst.Element(size, comma=cst.Comma())])  # ops.randint takes a tuple only
        return size

    def _affine(self, draw: _Draw) -> tuple[cst.BaseExpression | None, cst.BaseExpression | None]:
        """`* scale + offset` that maps a standard draw onto numpy's parameters (None: not needed)."""
        if draw.name == "normal":
            return _unless(draw.args.get("scale"), "1"), _unless(draw.args.get("loc"), "0")
        if draw.name == "uniform":
            low, high = _unless(draw.args.get("low"), "0"), draw.args.get("high") or cst.Float("1.0")
            scale = high if low is None else cst.BinaryOperation(atom(high), cst.Subtract(), atom(low))
            return _unless(scale, "1"), low
        return None, None


# numpy.random function → its parameters in positional order (rand and randn take dimensions instead)
_SIGNATURES = {
    "rand": None,
    "randn": None,
    "random": ("size",),
    "random_sample": ("size",),
    "ranf": ("size",),
    "sample": ("size",),
    "standard_normal": ("size",),
    "uniform": ("low", "high", "size"),
    "normal": ("loc", "scale", "size"),
    "randint": ("low", "high", "size", "dtype"),
}
_NORMAL = {"randn", "standard_normal", "normal"}


@dataclass(frozen=True)
class _Draw:
    call: cst.Call
    name: str
    args: dict[str, cst.BaseExpression]
    dims: tuple[cst.Arg, ...] | None  # rand/randn: the dimensions as written (star arguments too)
    dtype: DType
    unsupported: str = ""

    @property
    def normal(self) -> bool:
        return self.name in _NORMAL

    @classmethod
    def of(cls, ctx, call: cst.Call) -> _Draw | None:
        name = numpy_function(ctx, call, "numpy.random.")
        if name is None or dotted_name(call.func) is None:  # `np.random.rand(1).item()` is a method of a draw
            return None
        if name not in _SIGNATURES:
            return cls(call, name, {}, None, DType(unknown=True), "no ops equivalent")
        if _SIGNATURES[name] is None:
            dims = tuple(a.with_changes(comma=cst.MaybeSentinel.DEFAULT) for a in call.args)
            problem = "a single number" if not dims else "keyword arguments" if any(a.keyword for a in dims) else ""
            return cls(call, name, {}, dims, DType(name="float64"), problem)
        args, problem = bind(call, _SIGNATURES[name])
        if name == "randint" and not problem:
            if "low" not in args:
                problem = "no `low`"
            elif "high" in args:
                args["low_bound"], args["high_bound"] = args["low"], args["high"]
            else:  # randint(n) draws from [0, n)
                args["high_bound"] = args["low"]
        dtype = _randint_dtype(ctx, args) if name == "randint" else DType(name="float64")
        if not problem and "size" not in args:
            problem = "a single number"
        return cls(call, name, args, None, dtype, problem)


def _randint_dtype(ctx, args: dict[str, cst.BaseExpression]) -> DType:
    node = args.pop("dtype", None)
    return DType(name="int64") if node is None else DType.of(ctx, node, allow_opaque=False)


def _unless(node: cst.BaseExpression | None, default: str) -> cst.BaseExpression | None:
    """`node`, or None when it is absent or the literal default (`0`, `0.0`, `1`, `1.0`)."""
    if node is None or (isinstance(node, (cst.Integer, cst.Float)) and float(node.value) == float(default)):
        return None
    return node
