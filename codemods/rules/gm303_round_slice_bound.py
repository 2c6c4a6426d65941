from __future__ import annotations

import libcst as cst

from graphmend.messages import explains
from graphmend.rule import Rule
from graphmend.targets import DYNAMIC, EXPORT, GRAPH, STRICT, breaks
from graphmend.values import KNOWN


class RoundSliceBound(Rule):
    """`round(v)` as a slice bound in graph code → `int(round(v))`.

    What it does:
        Finds a slice whose start, stop or step is `round(v)` of a Python number (`x[:, :round(self.rate *
        c)]` with `c = x.shape[1]`) inside `construct` (and other graph code) and wraps it in `int(...)`.
        `round(v, n)`, `round` of a tensor and a name that is not the builtin `round` are left alone.

    Why it breaks graph mode:
        In Python `round(v)` returns an int; MindSpore's graph compiler gives a Float32 scalar, which a
        slice does not take. Measured on MindSpore 2.10 (CPU), `x[:, :round(self.rate * c)]` runs in
        PyNative and fails in GRAPH, STRICT and with a dynamic batch: "The type of input of the MakeSlice
        operator must be int64 bot got AbstractScalar(Type: Float32, Value: 2 …)". `int(round(...))`
        compiles in all of them. A float bound without `round` (`x[:, :self.rate * c]`) fails in PyNative
        too ("Slice index type must be int, tensor or none"), so it is not reported here.

    Example:
        kept = x[:, :round(self.rate * c)]
        # becomes
        kept = x[:, :int(round(self.rate * c))]

    Fix safety:
        Safe: `int(round(v))` is the number PyNative slices with. `int(v)` alone is not: it truncates where
        `round` rounds half to even. Measured in GRAPH, STRICT and a dynamic batch against PyNative for
        1.5, 2.5 (both 2: the graph's `round` also rounds half to even) and 2.7 (3); `int(1.5)` is 1.
    """

    CODE = "GM303"
    NAME = "round-slice-bound"
    BREAKS = breaks(
        GRAPH, STRICT, DYNAMIC, EXPORT, note="MakeSlice takes int64 bounds, round() is a float in graph mode"
    )
    EXPLAINS = (
        explains(
            r"The type of input of the MakeSlice operator must be int64 bot got AbstractScalar\(Type: "
            r"Float32",
            GRAPH,
            STRICT,
            DYNAMIC,
            EXPORT,
        ),
    )
    FIX = "safe"

    def visit_Slice(self, node: cst.Slice) -> None:
        for bound in (node.lower, node.upper, node.step):
            if isinstance(bound, cst.Call) and self._is_round_of_number(bound):
                self._report(bound)

    def _is_round_of_number(self, call: cst.Call) -> bool:
        if not self.values.is_builtin(call.func, ("round",)) or len(call.args) != 1:
            return False
        arg = call.args[0]
        return arg.keyword is None and not arg.star and self.values.tensor(arg.value) is not KNOWN

    def _report(self, call: cst.Call) -> None:
        replacement = cst.Call(cst.Name("int"), [cst.Arg(call.with_changes(lpar=[], rpar=[]))])
        message = (
            f"`{self.ctx.code(call)}` as a slice bound in {self.ctx.where()}: the graph compiler makes `round` a "
            'Float32, and GRAPH, STRICT and export reject it ("The type of input of the MakeSlice operator must '
            f'be int64"); use `{self.ctx.code(replacement)}`'
        )
        self.report(call, message, replacement, "safe")
