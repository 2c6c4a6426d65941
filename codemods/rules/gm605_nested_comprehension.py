from __future__ import annotations

import libcst as cst

from graphmend.builders import assign_line
from graphmend.messages import explains
from graphmend.rule import Rule
from graphmend.targets import DYNAMIC, EXPORT, GRAPH, STRICT, breaks
from graphmend.tree import names_in

_KINDS = {cst.ListComp: "list", cst.GeneratorExp: "generator", cst.DictComp: "dict", cst.SetComp: "set"}


class NestedComprehension(Rule):
    """A comprehension with two or more `for` clauses in graph code → nested loops.

    What it does:
        Rewrites `name = [elt for a in A if c for b in B]`, a statement of its own, into `name = []`
        followed by the same `for`/`if` clauses as nested statements around `name.append(elt)`. Other
        comprehensions with several `for` clauses (dict and generator comprehensions, a comprehension
        inside a larger expression) are reported without a fix. One `for` clause is fine and not
        reported.

    Why it breaks graph mode:
        MindSpore's graph compiler takes one `for` clause per comprehension. Measured on MindSpore 2.10
        (bench/limits, row 4): GRAPH (LAX), STRICT, a dynamic batch and export all fail with "The
        'generators' supports 1 'comprehension' in ListComp/GeneratorExp, but got 2 comprehensions."
        (DictComp likewise).

    Example:
        pairs = [i * j for i in range(2) for j in range(3)]
        # becomes
        pairs = []
        for i in range(2):
            for j in range(3):
                pairs.append(i * j)

    Fix safety:
        Safe: the loops visit the same items in the same order and append the same values; `append` on a
        list only one name holds builds the same list in graph mode (bench/limits row 14 measures the
        aliased case, which this never creates). Not fixed when a loop variable is also bound elsewhere
        in the function (the loops would overwrite it, where a comprehension has its own scope) or when
        the comprehension reads the name it is assigned to.
    """

    CODE = "GM605"
    NAME = "nested-comprehension"
    BREAKS = breaks(GRAPH, STRICT, DYNAMIC, EXPORT, note="one `for` per comprehension only")
    EXPLAINS = (
        explains(
            r"The 'generators' supports 1 'comprehension' in ListComp/GeneratorExp",
            GRAPH,
            STRICT,
            DYNAMIC,
            EXPORT,
        ),
    )

    def visit_ListComp(self, node: cst.ListComp) -> None:
        self._check(node)

    def visit_GeneratorExp(self, node: cst.GeneratorExp) -> None:
        self._check(node)

    def visit_DictComp(self, node: cst.DictComp) -> None:
        self._check(node)

    def visit_SetComp(self, node: cst.SetComp) -> None:
        self._check(node)

    def _check(self, node: cst.ListComp | cst.GeneratorExp | cst.DictComp | cst.SetComp) -> None:
        clauses = _clauses(node.for_in)
        if len(clauses) < 2:
            return
        kind = _KINDS[type(node)]
        message = (
            f"a {kind} comprehension with {len(clauses)} `for` clauses in {self.ctx.where()}: MindSpore's graph "
            f"compiler takes one per comprehension (\"supports 1 'comprehension'\")"
        )
        line = self._statement(node)
        if line is None:
            self.report(node, message + "; write the loops as statements, or iterate one clause over a product")
            return
        target = line.body[0].targets[0].target.value  # type: ignore[attr-defined]
        self.report(line, message + "; write nested loops that append", _loops(target, node, clauses, line))

    def _statement(self, node: cst.CSTNode) -> cst.SimpleStatementLine | None:
        """The line `name = <node>` when the fix can rewrite it, else None."""
        if not isinstance(node, cst.ListComp):
            return None
        assign = self.ctx.parents.get(node)
        line = self.ctx.parents.get(assign) if isinstance(assign, cst.Assign) else None
        if not (isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 and assign.value is node):
            return None
        if len(assign.targets) != 1 or not isinstance(assign.targets[0].target, cst.Name):
            return None
        target = assign.targets[0].target.value
        if target in names_in(node):
            return None
        for clause in _clauses(node.for_in):
            for name in names_in(clause.target):
                # a comprehension's own variables stay in it; any other binding would be overwritten
                if any(not isinstance(self.ctx.parents.get(b.node), cst.CompFor) for b in self.values.bindings(name)):
                    return None
        return line


def _clauses(first: cst.CompFor) -> list[cst.CompFor]:
    out, clause = [], first
    while clause is not None:
        out.append(clause)
        clause = clause.inner_for_in
    return out


def _loops(target: str, node: cst.ListComp, clauses: list[cst.CompFor], line: cst.SimpleStatementLine):
    append = cst.Call(cst.Attribute(cst.Name(target), cst.Name("append")), [cst.Arg(node.elt)])
    inner: cst.BaseStatement = cst.SimpleStatementLine([cst.Expr(append)])
    for clause in reversed(clauses):
        for condition in reversed(clause.ifs):
            inner = cst.If(test=condition.test, body=cst.IndentedBlock([inner]))
        inner = cst.For(target=clause.target, iter=clause.iter, body=cst.IndentedBlock([inner]))
    first = assign_line(target, cst.List([])).with_changes(leading_lines=line.leading_lines)
    return cst.FlattenSentinel([first, inner])
