import libcst as cst

from graphmend.messages import explains
from graphmend.rule import Rule
from graphmend.targets import DYNAMIC, EXPORT, GRAPH, STRICT, breaks


class SetData(Rule):
    """`Parameter.set_data` in graph code → `ops.assign`.

    What it does:
        Finds `p.set_data(value)` inside `construct` (and other graph code) and rewrites it to
        `ops.assign(p, value)`, as a statement or as an expression.

    Why it breaks graph mode:
        GRAPH_MODE rejects `set_data` in every configuration: "Failed to compile in GRAPH_MODE because the
        'Parameter' object's method 'set_data' is not supported in 'construct'", and under STRICT or export
        "cannot get attributes set_data". PyNative runs it, so the bug shows up only when a model is
        compiled. `ops.assign` is the graph-native update; the graph's auto-monad keeps reads before the
        write in order.

    Example:
        self.limit.set_data(ops.minimum(limit_new, self.max_limit))
        # becomes
        ops.assign(self.limit, ops.minimum(limit_new, self.max_limit))

    Fix safety:
        Safe when the receiver is an attribute of `self` (a Parameter of the Cell): same values, same
        Parameter state after the call. Unsafe for any other receiver, because `ops.assign` needs a
        Parameter. `set_data` with more arguments (`slice_shape=`) is reported without a fix.
    """

    CODE = "GM201"
    NAME = "set-data"
    BREAKS = breaks(GRAPH, STRICT, DYNAMIC, EXPORT)
    EXPLAINS = (
        explains(
            r"Failed to compile in GRAPH_MODE because the 'Parameter' object's method 'set_data' is "
            r"not supported",
            GRAPH,
            DYNAMIC,
        ),
        explains(r"In JIT strict mode, cannot get attributes set_data", STRICT, EXPORT),
    )
    FIX = "safe/unsafe"

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == "set_data"):
            return
        receiver = self.ctx.code(func.value)
        message = f"`{receiver}.set_data(...)` is rejected by GRAPH_MODE; use `ops.assign({receiver}, ...)`"
        if len(node.args) != 1 or node.args[0].keyword is not None or node.args[0].star:
            self.report(node, message + " (extra arguments: rewrite by hand)")
            return
        assign, needed = self.ctx.bindings.reference("mindspore.ops.assign")
        # Edit the call in place so the argument keeps its formatting and comments.
        target = cst.Arg(func.value, comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
        replacement = node.with_changes(func=assign, args=[target, *node.args])
        safety = "safe" if _rooted_at_self(func.value) else "unsafe"
        self.report(node, message, replacement, safety, (needed,))


def _rooted_at_self(node: cst.BaseExpression) -> bool:
    while isinstance(node, cst.Attribute):
        node = node.value
    return isinstance(node, cst.Name) and node.value == "self"
