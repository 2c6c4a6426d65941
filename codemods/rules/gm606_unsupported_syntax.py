from __future__ import annotations

import libcst as cst

from graphmend.messages import explains
from graphmend.rule import Rule
from graphmend.targets import DYNAMIC, EXPORT, GRAPH, STRICT, breaks

# node type → (what it is, MindSpore 2.10's error, what to do)
_SYNTAX: dict[type, tuple[str, str, str]] = {
    cst.Try: (
        "`try`",
        "Unsupported statement 'Try'",
        "check the condition before instead of catching, or move the `try` out of graph code",
    ),
    cst.TryStar: ("`try`", "Unsupported statement 'Try'", "move the `try` out of graph code"),
    cst.Yield: ("`yield`", "Unsupported expression 'Yield'", "build and return a tuple or list instead of a generator"),
    cst.Match: ("`match`", "Unsupported statement 'Match'", "use `if`/`elif`"),
    cst.Import: ("`import`", "Unsupported statement 'Import'", "import at the top of the module"),
    cst.ImportFrom: ("`from … import`", "Unsupported statement 'Import'", "import at the top of the module"),
    cst.Nonlocal: ("`nonlocal`", "Unsupported statement 'Nonlocal'", "return the value from the inner function"),
    cst.Set: ("a set display", "Unsupported expression 'Set'", "use a tuple or list of distinct items"),
    cst.SetComp: (
        "a set comprehension",
        "Unsupported expression 'SetComp'",
        "use a list comprehension of distinct items",
    ),
}


class UnsupportedSyntax(Rule):
    """Syntax MindSpore's graph compiler rejects: `try`, `yield`, `match`, `import`, `nonlocal`, set displays.

    What it does:
        Reports `try`, `yield`, `match`, `import`, `nonlocal`, set displays and set comprehensions in
        graph code (construct, the methods and functions it calls, `@jit` functions), with the error
        MindSpore gives and what to write instead.

    Why it breaks graph mode:
        The graph compiler parses the function's source and has no translation for these. Measured on
        MindSpore 2.10 (bench/limits, rows 1, 2, 3 and 50): each fails in GRAPH (LAX), STRICT, a dynamic
        batch and export with "Unsupported statement 'Try'." ('Match', 'Import', 'Nonlocal') or
        "Unsupported expression 'Yield'." ('Set', 'SetComp'), also inside a function decorated with
        `jit(capture_mode="bytecode")` once construct calls it in GRAPH_MODE; called from PyNative, such a
        function ran, so functions decorated that way are not reported. (`set(...)` of a list ran with
        PyNative's numbers in every mode: only the display syntax fails.)

    Example:
        try:
            y = self.head(x)
        except ValueError:
            y = x
        # no mechanical rewrite: graph code cannot catch; test the condition that raises instead

    Fix safety:
        No fix: a `try` has no graph equivalent, a generator's consumer must change with it, and the
        others have rewrites whose meaning depends on the surrounding code (a set's order, an import's
        side effects).
    """

    CODE = "GM606"
    NAME = "unsupported-syntax"
    BREAKS = breaks(GRAPH, STRICT, DYNAMIC, EXPORT, note="the graph parser rejects the statement")
    EXPLAINS = (
        explains(
            r"Unsupported statement 'Try'",
            GRAPH,
            STRICT,
            DYNAMIC,
            EXPORT,
        ),
    )
    FIX = "none"

    def visit_Try(self, node: cst.Try) -> None:
        self._report(node)

    def visit_TryStar(self, node: cst.TryStar) -> None:
        self._report(node)

    def visit_Yield(self, node: cst.Yield) -> None:
        self._report(node)

    def visit_Match(self, node: cst.Match) -> None:
        self._report(node)

    def visit_Import(self, node: cst.Import) -> None:
        self._report(node)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        self._report(node)

    def visit_Nonlocal(self, node: cst.Nonlocal) -> None:
        self._report(node)

    def visit_Set(self, node: cst.Set) -> None:
        self._report(node)

    def visit_SetComp(self, node: cst.SetComp) -> None:
        self._report(node)

    def _report(self, node: cst.CSTNode) -> None:
        if self.ctx.current is not None and _bytecode(self.ctx.current.node):
            return  # in PyNative, bytecode capture runs what it cannot graph in Python
        what, error, todo = _SYNTAX[type(node)]
        self.report(node, f'{what} in {self.ctx.where()}: MindSpore\'s graph compiler rejects it ("{error}"); {todo}')


def _bytecode(function: cst.FunctionDef) -> bool:
    """Decorated `jit(capture_mode="bytecode")`."""
    for decorator in function.decorators:
        call = decorator.decorator
        if isinstance(call, cst.Call):
            for arg in call.args:
                value = arg.value
                if arg.keyword and arg.keyword.value == "capture_mode" and isinstance(value, cst.SimpleString):
                    if value.evaluated_value == "bytecode":
                        return True
    return False
