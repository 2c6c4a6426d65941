from __future__ import annotations

import libcst as cst

from codemods.rule import Rule

# the list methods CPython runs in place
_IN_PLACE = {"append", "extend", "insert", "pop", "remove", "reverse", "sort", "clear"}


class ListAliasMutation(Rule):
    """An in-place list change through one name of a list that another local name also holds.

    What it does:
        Reports `b.append(...)` (and `extend`, `insert`, `pop`, `remove`, `reverse`, `sort`, `clear`),
        and `b[i] = ...` in graph code when `b` is a Python list that another local name holds
        too (`b = a`, or `a = b`). A list that only one name holds is fine and not reported.

    Why it breaks graph mode:
        It does not fail: it gives other results. In graph code a list method does not change the list in
        place: MindSpore makes a new list and binds it to the name the method was called on, so the other
        name keeps the old contents. Measured on MindSpore 2.10 (bench/limits, row 14): after
        `a = [x, x * 2]; b = a; b.append(x * 3)`, `len(a)` is 3 in PyNative and 2 in GRAPH (LAX), STRICT,
        with a dynamic batch and in an exported MindIR, with no error or warning; `b[0] = ...`, `extend`,
        `pop`, `insert`, `reverse` and `clear` behave the same way.

    Example:
        outs = [x]
        feats = outs
        feats.append(self.head(x))     # PyNative: outs has 2 items; graph mode: 1
        return outs
        # by hand: use one name for the list, or rebind the other after the change (`outs = feats`)

    Fix safety:
        No fix: which name the rest of the code should read, and whether the other name was rebound in
        between, is not something graphmend can decide from one statement.
    """

    CODE = "GM601"
    NAME = "list-alias-mutation"
    BREAKS = "GRAPH, STRICT, dynamic, export (silent: the other name keeps the old list)"
    FIX = "none"

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value in _IN_PLACE and isinstance(func.value, cst.Name):
            self._check(node, func.value, f"`{func.value.value}.{func.attr.value}(...)`")

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        target = node.target
        if isinstance(target, cst.Subscript) and isinstance(target.value, cst.Name):
            self._check(target, target.value, f"`{target.value.value}[...] = ...`")

    def _check(self, node: cst.CSTNode, name: cst.Name, what: str) -> None:
        if not self.values.is_list(name):
            return
        aliases = self.values.list_aliases(name.value)
        if not aliases:
            return
        others = ", ".join(f"`{a}`" for a in aliases)
        self.report(
            node,
            f"{what} in {self.ctx.where()} changes the list `{name.value}` shares with {others}: in graph mode "
            f"list methods make a new list, so {others} keeps the old contents where PyNative sees the change "
            f"(no error, other results); use one name for the list, or rebind the other after the change",
        )
