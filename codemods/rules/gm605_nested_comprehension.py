from __future__ import annotations

import libcst as cst

from graphmend.builders import assign_line, fresh_name
from graphmend.messages import explains
from graphmend.rule import Rule
from graphmend.targets import DYNAMIC, EXPORT, GRAPH, STRICT, breaks
from graphmend.tree import names_in

_KINDS = {cst.ListComp: "list", cst.GeneratorExp: "generator", cst.DictComp: "dict", cst.SetComp: "set"}


class NestedComprehension(Rule):
    """A comprehension with two or more `for` clauses in graph code → nested loops.

    What it does:
        Rewrites `name = [elt for a in A if c for b in B]`, a statement of its own, into `name = []`
        followed by the same `for`/`if` clauses as nested statements around `name.append(elt)`.
        `name = list(elt for … for …)` (the builtin, a generator or a list comprehension its only
        argument) is built the same way; `name = tuple(…)` in a list of its own, `name_items`, then
        `name = tuple(name_items)`; so is a comprehension that reads `name` itself (XLNet's
        `hidden_states = tuple(h… for hs in hidden_states for h in hs)`). Other comprehensions with
        several `for` clauses (dict and set comprehensions, a comprehension inside a larger expression)
        are reported without a fix. One `for` clause is fine and not reported.

    Why it breaks graph mode:
        MindSpore's graph compiler takes one `for` clause per comprehension. Measured on MindSpore 2.10
        (bench/limits, row 4): GRAPH (LAX), STRICT, a dynamic batch and export all fail with "The
        'generators' supports 1 'comprehension' in ListComp/GeneratorExp, but got 2 comprehensions."
        (DictComp likewise). The fix's loops, and `tuple(…)` of the list they build, run in every
        configuration with PyNative's numbers (tests/verify_rules/limits/gm605_nested_comprehension.py).

    Example:
        pairs = [i * j for i in range(2) for j in range(3)]
        hidden = tuple(h * 2 for hs in hidden for h in hs)
        # becomes
        pairs = []
        for i in range(2):
            for j in range(3):
                pairs.append(i * j)
        hidden_items = []
        for hs in hidden:
            for h in hs:
                hidden_items.append(h * 2)
        hidden = tuple(hidden_items)

    Fix safety:
        Safe: the loops visit the same items in the same order and append the same values; `append` on a
        list only one name holds builds the same list in graph mode (bench/limits row 14 measures the
        aliased case, which this never creates). Not fixed when a loop variable is also bound elsewhere
        in the function (the loops would overwrite it, where a comprehension has its own scope). A
        generator passed to `tuple()`/`list()` is consumed at once, so building the list first computes
        the same items in the same order.
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
        found = self._statement(node)
        if found is None:
            self.report(node, message + "; write the loops as statements, or iterate one clause over a product")
            return
        line, wrapper = found
        target = line.body[0].targets[0].target.value  # type: ignore[attr-defined]
        if wrapper in (None, "list") and target not in names_in(node):
            self.report(line, message + "; write nested loops that append", _loops(target, node, line))
            return
        taken = set(self.values.index().bindings) | names_in(self.ctx.current.node if self.ctx.current else node)
        items = fresh_name(f"{target}_items", taken)
        value = cst.Call(cst.Name(wrapper or "list"), [cst.Arg(cst.Name(items))])
        fix = _loops(items, node, line, value)
        then = f"`{target} = {wrapper or 'list'}(…)` of it"
        self.report(line, message + f"; build `{items}` with nested loops, then {then}", fix)

    def _statement(self, node: cst.CSTNode) -> tuple[cst.SimpleStatementLine, str | None] | None:
        """The line `name = <node>` (or `name = tuple(<node>)`, `list(<node>)`) when the fix can rewrite it,
        with the wrapper's name; else None."""
        value, wrapper = node, None
        if isinstance(node, cst.GeneratorExp | cst.ListComp):
            argument = self.ctx.parents.get(node)
            call = self.ctx.parents.get(argument) if isinstance(argument, cst.Arg) else None
            if isinstance(call, cst.Call) and len(call.args) == 1 and argument.keyword is None and not argument.star:
                for name in ("tuple", "list"):
                    if self.values.is_builtin(call.func, (name,)):
                        value, wrapper = call, name
        if not isinstance(node, cst.ListComp) and wrapper is None:
            return None
        assign = self.ctx.parents.get(value)
        line = self.ctx.parents.get(assign) if isinstance(assign, cst.Assign) else None
        if not (isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 and assign.value is value):
            return None
        if len(assign.targets) != 1 or not isinstance(assign.targets[0].target, cst.Name):
            return None
        for clause in _clauses(node.for_in):
            for name in names_in(clause.target):
                # a comprehension's own variables stay in it; any other binding would be overwritten
                if any(not isinstance(self.ctx.parents.get(b.node), cst.CompFor) for b in self.values.bindings(name)):
                    return None
        return line, wrapper


def _clauses(first: cst.CompFor) -> list[cst.CompFor]:
    out, clause = [], first
    while clause is not None:
        out.append(clause)
        clause = clause.inner_for_in
    return out


def _loops(
    items: str,
    node: cst.ListComp | cst.GeneratorExp,
    line: cst.SimpleStatementLine,
    value: cst.BaseExpression | None = None,
) -> cst.FlattenSentinel:
    """`items = []`, the clauses as nested statements around `items.append(elt)`, then the line again with
    `value` as what it assigns."""
    append = cst.Call(cst.Attribute(cst.Name(items), cst.Name("append")), [cst.Arg(node.elt)])
    inner: cst.BaseStatement = cst.SimpleStatementLine([cst.Expr(append)])
    for clause in reversed(_clauses(node.for_in)):
        for condition in reversed(clause.ifs):
            inner = cst.If(test=condition.test, body=cst.IndentedBlock([inner]))
        inner = cst.For(target=clause.target, iter=clause.iter, body=cst.IndentedBlock([inner]))
    first = assign_line(items, cst.List([])).with_changes(leading_lines=line.leading_lines)
    if value is None:
        return cst.FlattenSentinel([first, inner])
    last = line.with_changes(body=[line.body[0].with_changes(value=value)], leading_lines=())
    return cst.FlattenSentinel([first, inner, last])
