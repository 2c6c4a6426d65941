from __future__ import annotations

import libcst as cst

from graphmend.messages import explains
from graphmend.rule import Rule
from graphmend.targets import DYNAMIC, EXPORT, GRAPH, STRICT, breaks


class DelLocal(Rule):
    """`del` in graph code; `del` of local names → removed.

    What it does:
        Removes a statement line `del a` / `del a, b` whose targets are all local names of the graph
        function. Any other `del` (`del self.cache`, `del d[k]`, a `del` sharing its line with other
        statements, a name declared `global`) is reported without a fix.

    Why it breaks graph mode:
        MindSpore's graph compiler has no `del`. Measured on MindSpore 2.10 (bench/limits, row 2):
        GRAPH (LAX), STRICT, a dynamic batch and export all fail with "Unsupported statement 'Delete'."

    Example:
        t = self.proj(x)
        y = ops.relu(t)
        del t  # free memory early
        return y
        # becomes
        t = self.proj(x)
        y = ops.relu(t)
        return y

    Fix safety:
        Safe: `del` of a local name only unbinds it; code that ran before still runs and computes the same
        numbers (a graph frees what it no longer uses by itself). A comment on the removed line makes the
        fix unsafe, as every fix that would drop a comment.
    """

    CODE = "GM604"
    NAME = "del-local"
    BREAKS = breaks(GRAPH, STRICT, DYNAMIC, EXPORT, note="`del` is an unsupported statement")
    EXPLAINS = (
        explains(
            r"Unsupported statement 'Delete'",
            GRAPH,
            STRICT,
            DYNAMIC,
            EXPORT,
        ),
    )
    FIX = "safe/unsafe"

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        deletes = [s for s in node.body if isinstance(s, cst.Del)]
        if not deletes:
            return
        code = self.ctx.code(deletes[0]).strip().rstrip(";")
        message = (
            f"`{code}` in {self.ctx.where()}: MindSpore's graph compiler rejects `del` (\"Unsupported statement "
            f"'Delete'\")"
        )
        if len(node.body) == 1 and all(self._local(t) for t in _targets(deletes[0].target)):
            self.report(node, message + "; a graph frees what it no longer uses: remove it", cst.RemovalSentinel.REMOVE)
            return
        self.report(
            deletes[0], message + "; remove it, or keep the value and stop using it (`d.pop(k)` for a dict entry)"
        )

    def _local(self, target: cst.BaseExpression) -> bool:
        if not isinstance(target, cst.Name):
            return False
        bindings = self.values.bindings(target.value)
        return bool(bindings) and target.value not in self.values.index().polymorphic


def _targets(target: cst.BaseExpression) -> list[cst.BaseExpression]:
    if isinstance(target, cst.Tuple | cst.List):
        return [element.value for element in target.elements]
    return [target]
