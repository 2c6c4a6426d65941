from __future__ import annotations

import libcst as cst

from graphmend.rule import Rule
from graphmend.targets import DYNAMIC, EXPORT, GRAPH, STRICT, breaks

# the list methods CPython runs in place
_IN_PLACE = {"append", "extend", "insert", "pop", "remove", "reverse", "sort", "clear"}
# ... and those only a list has (tensors sort, dicts pop and clear)
_LIST_ONLY = {"append", "extend", "insert"}


class ListAliasMutation(Rule):
    """An in-place list change through one name of a list that another local name also holds.

    What it does:
        Reports `b.append(...)` (and `extend`, `insert`, `pop`, `remove`, `reverse`, `sort`, `clear`),
        and `b[i] = ...` in graph code when `b` is a Python list that another local name holds too,
        through an assignment written before the change (`b = a`, or `a = b`); and `append`, `extend` or
        `insert` on a parameter of a helper that graph code calls (`self.add(outs, x)` with
        `outs.append(...)` in `add`), where the caller holds the list. A list that only one name holds is
        fine and not reported.

    Why it breaks graph mode:
        It does not fail: it gives other results. In graph code a list method does not change the list in
        place: MindSpore makes a new list and binds it to the name the method was called on, so the other
        name keeps the old contents. Measured on MindSpore 2.10 (bench/limits, row 14): after
        `a = [x, x * 2]; b = a; b.append(x * 3)`, `len(a)` is 3 in PyNative and 2 in GRAPH (LAX), STRICT,
        with a dynamic batch and in an exported MindIR, with no error or warning; `b[0] = ...`, `extend`,
        `pop`, `insert`, `reverse` and `clear` behave the same way. A helper's `outs.append(...)` on the list
        its caller passed leaves the caller's `len(outs)` at 1 where PyNative has 2, in every mode.

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
    BREAKS = breaks(GRAPH, STRICT, DYNAMIC, EXPORT, silent=True, note="silent: the other name keeps the old list")
    FIX = "none"

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value in _IN_PLACE and isinstance(func.value, cst.Name):
            self._check(node, func.value, f"`{func.value.value}.{func.attr.value}(...)`", func.attr.value)

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        target = node.target
        if isinstance(target, cst.Subscript) and isinstance(target.value, cst.Name):
            self._check(target, target.value, f"`{target.value.value}[...] = ...`")

    def _check(self, node: cst.CSTNode, name: cst.Name, what: str, method: str = "") -> None:
        if method in _LIST_ONLY and self._helper_parameter(name):
            self.report(
                node,
                f"{what} in {self.ctx.where()} changes the list the caller passed as `{name.value}`: in graph mode "
                f"list methods make a new list, so the caller's list keeps the old contents where PyNative sees "
                f"the change (no error, other results); return the list and rebind it where the helper is called",
            )
            return
        if not self.values.is_list(name):
            return
        aliases = self.values.list_aliases(name.value, node)
        if not aliases:
            return
        others = ", ".join(f"`{a}`" for a in aliases)
        self.report(
            node,
            f"{what} in {self.ctx.where()} changes the list `{name.value}` shares with {others}: in graph mode "
            f"list methods make a new list, so {others} keeps the old contents where PyNative sees the change "
            f"(no error, other results); use one name for the list, or rebind the other after the change",
        )

    def _helper_parameter(self, name: cst.Name) -> bool:
        """`name` is a parameter, never rebound, of a helper that graph code calls (the caller holds the list)."""
        current = self.ctx.current
        if current is None or not current.reason.startswith("called from"):
            return False
        bindings = self.values.bindings(name.value)
        return len(bindings) == 1 and bindings[0].kind == "param"
