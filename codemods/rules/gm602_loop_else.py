from __future__ import annotations

import libcst as cst

from graphmend.builders import assign_line, fresh_name
from graphmend.messages import explains
from graphmend.rule import Rule
from graphmend.targets import DYNAMIC, EXPORT, GRAPH, STRICT, breaks
from graphmend.tree import names_in


class LoopElse(Rule):
    """`for … else` and `while … else` in graph code → a flag set where the loop breaks.

    What it does:
        Rewrites a loop with an `else` clause into the same loop without it: a flag is set to `True`
        before the loop, each `break` of that loop sets it to `False` first, and the `else` body runs
        under `if flag:` after the loop.

    Why it breaks graph mode:
        MindSpore's graph compiler has no `else` on loops. Measured on MindSpore 2.10 (bench/limits,
        row 5): GRAPH (LAX), STRICT, a dynamic batch and export all fail with "The 'for...else...'
        statement is not supported now." (and the same for `while`).

    Example:
        for layer in self.layers:
            if layer.skip:
                break
            x = layer(x)
        else:
            x = self.norm(x)
        # becomes
        no_break = True
        for layer in self.layers:
            if layer.skip:
                no_break = False
                break
            x = layer(x)
        if no_break:
            x = self.norm(x)

    Fix safety:
        Safe: Python runs a loop's `else` exactly when the loop ends without `break`, which is when the
        flag is still `True`; `break`s of nested loops and functions are left alone. The flag's name is
        one the function does not use.
    """

    CODE = "GM602"
    NAME = "loop-else"
    BREAKS = breaks(GRAPH, STRICT, DYNAMIC, EXPORT, note="a loop `else` is rejected")
    EXPLAINS = (
        explains(
            r"The 'for\.\.\.else\.\.\.' statement is not supported",
            GRAPH,
            STRICT,
            DYNAMIC,
            EXPORT,
        ),
    )

    def visit_For(self, node: cst.For) -> None:
        if node.orelse is not None and node.asynchronous is None:
            self._loop(node, "for")

    def visit_While(self, node: cst.While) -> None:
        if node.orelse is not None:
            self._loop(node, "while")

    def _loop(self, node: cst.For | cst.While, keyword: str) -> None:
        taken = set(self.values.index().bindings) | names_in(node)
        flag = fresh_name("no_break", taken)
        orelse = node.orelse
        assert orelse is not None
        body = node.body.visit(_FlagBreaks(flag))
        loop = node.with_changes(body=body, orelse=None, leading_lines=())
        after = cst.If(test=cst.Name(flag), body=orelse.body, leading_lines=orelse.leading_lines)
        first = assign_line(flag, cst.Name("True")).with_changes(leading_lines=node.leading_lines)
        self.report(
            node,
            f"`{keyword} … else` in {self.ctx.where()}: MindSpore's graph compiler rejects an `else` on a loop "
            f"(\"The '{keyword}...else...' statement is not supported now\"); set a flag where the loop breaks "
            f"and test it after the loop",
            cst.FlattenSentinel([first, loop, after]),
        )


class _FlagBreaks(cst.CSTTransformer):
    """`break` of the loop being rewritten → `flag = False` then `break`; inner loops and functions keep theirs."""

    def __init__(self, flag: str) -> None:
        super().__init__()
        self.flag = flag

    def visit_For(self, node: cst.For) -> bool:
        return False

    def visit_While(self, node: cst.While) -> bool:
        return False

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        return False

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine):
        if len(updated.body) == 1 and isinstance(updated.body[0], cst.Break):
            flag = assign_line(self.flag, cst.Name("False")).with_changes(leading_lines=updated.leading_lines)
            return cst.FlattenSentinel([flag, updated.with_changes(leading_lines=())])
        return updated.with_changes(body=self._small(updated.body))

    def leave_SimpleStatementSuite(self, original: cst.SimpleStatementSuite, updated: cst.SimpleStatementSuite):
        return updated.with_changes(body=self._small(updated.body))

    def _small(self, body) -> list:
        out = []
        for statement in body:
            if isinstance(statement, cst.Break):
                out.append(cst.Assign([cst.AssignTarget(cst.Name(self.flag))], cst.Name("False")))
            out.append(statement)
        # `a; break` → `a; flag = False; break`: a separator after every statement but the last
        space = cst.Semicolon(whitespace_after=cst.SimpleWhitespace(" "))
        last = len(out) - 1
        return [s.with_changes(semicolon=space if i < last else cst.MaybeSentinel.DEFAULT) for i, s in enumerate(out)]
