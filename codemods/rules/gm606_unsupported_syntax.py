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
    cst.Set: ("a set display", "Unsupported expression 'Set'", "use `set(...)` of a tuple"),
    cst.SetComp: ("a set comprehension", "Unsupported expression 'SetComp'", "use `set(...)` of a list comprehension"),
}


class UnsupportedSyntax(Rule):
    """Syntax the graph compiler rejects: `try`, `yield`, `match`, `import`, `nonlocal`; set displays → `set(...)`.

    What it does:
        Reports `try`, `yield`, `match`, `import`, `nonlocal`, set displays and set comprehensions in
        graph code (construct, the methods and functions it calls, `@jit` functions), with the error
        MindSpore gives and what to write instead. Set displays and comprehensions are fixed: the right
        side of `in` / `not in` becomes a tuple (`x.dtype in (ms.int32, ms.int64)`), any other display
        `set((a, b))` and a comprehension `set([f(k) for k in ks])`.

    Why it breaks graph mode:
        The graph compiler parses the function's source and has no translation for these. Measured on
        MindSpore 2.10 (bench/limits, rows 1, 2, 3 and 50): each fails in GRAPH (LAX), STRICT, a dynamic
        batch and export with "Unsupported statement 'Try'." ('Match', 'Import', 'Nonlocal') or
        "Unsupported expression 'Yield'." ('Set', 'SetComp'), also inside a function decorated with
        `jit(capture_mode="bytecode")` once construct calls it in GRAPH_MODE; called from PyNative, such a
        function ran, so functions decorated that way are not reported. `set(...)` ran with PyNative's
        numbers in every mode: only the display syntax fails (tests/verify_rules/limits/gm606_set_display.py,
        reformer's `attn_types_set == {"lsh", "local"}` and gpt_neo's `labels.dtype in {int64, int32}`:
        equality, sizes, starred elements, a comprehension and `not in`, all four configurations).

    Example:
        if len(kinds) == 2 and kinds == {"lsh", "local"}:
        # becomes
        if len(kinds) == 2 and kinds == set(("lsh", "local")):

        try:
            y = self.head(x)
        except ValueError:
            y = x
        # no mechanical rewrite: graph code cannot catch; test the condition that raises instead

    Fix safety:
        Safe for sets: `set((a, b))` is the set `{a, b}` is (a membership test of a tuple is the same
        test: it compares by identity, then `==`, as a set does for hashable items). Not fixed where
        `set` means something else. No fix for the others: a `try` has no graph equivalent, a
        generator's consumer must change with it, `nonlocal` needs the inner function rewritten, and an
        import moved to the top of the module changes when its side effects run.
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
    FIX = "safe"

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
        elements = [e.with_changes(comma=cst.MaybeSentinel.DEFAULT) for e in node.elements]
        if _membership(self.ctx.parents.get(node), node):
            parens = {"lpar": node.lpar or [cst.LeftParen()], "rpar": node.rpar or [cst.RightParen()]}
            self._report(node, cst.Tuple(elements, **parens), "use a tuple: the same membership test")
        else:
            self._report(node, self._set_of(node, cst.Tuple(elements)), "use `set(...)` of a tuple: the same set")

    def visit_SetComp(self, node: cst.SetComp) -> None:
        items = cst.ListComp(node.elt, node.for_in)
        self._report(node, self._set_of(node, items), "use `set(...)` of a list comprehension: the same set")

    def _set_of(self, node: cst.BaseExpression, items: cst.BaseExpression) -> cst.Call | None:
        """`set(items)`, with the parentheses `node` had; None where `set` is not the builtin."""
        if not self.values.builtin_here(node, "set"):
            return None
        return cst.Call(cst.Name("set"), [cst.Arg(items)], lpar=node.lpar, rpar=node.rpar)

    def _report(self, node: cst.CSTNode, replacement: cst.CSTNode | None = None, how: str = "") -> None:
        if self.ctx.current is not None and _bytecode(self.ctx.current.node):
            return  # in PyNative, bytecode capture runs what it cannot graph in Python
        what, error, todo = _SYNTAX[type(node)]
        head = f'{what} in {self.ctx.where()}: MindSpore\'s graph compiler rejects it ("{error}")'
        if replacement is not None:
            self.report(node, f"{head}; {how}", replacement)
        elif how:
            self.report(node, f"{head}; {todo} (`set` means something else here: rewrite by hand)")
        else:
            self.report(node, f"{head}; {todo}")


def _membership(parent: cst.CSTNode | None, node: cst.Set) -> bool:
    """`node` is what an `in` / `not in` looks in (`x in {a, b}`), with no starred element."""
    if not isinstance(parent, cst.ComparisonTarget) or parent.comparator is not node:
        return False
    starred = any(isinstance(e, cst.StarredElement) for e in node.elements)
    return isinstance(parent.operator, (cst.In, cst.NotIn)) and not starred


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
