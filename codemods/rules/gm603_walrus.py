from __future__ import annotations

import libcst as cst

from graphmend.builders import assign_line
from graphmend.messages import explains
from graphmend.rule import Rule
from graphmend.targets import DYNAMIC, EXPORT, GRAPH, STRICT, breaks


class Walrus(Rule):
    """An assignment expression (`:=`) in graph code → an assignment before the statement.

    What it does:
        Rewrites `if (n := value) > 1:` into `n = value` followed by `if n > 1:`, when the assignment
        expression is the first thing the `if` test evaluates (the test itself, the left end of a
        comparison, arithmetic, `and`/`or` or `not`, or the first argument of a call of a plain name, as in
        `if not isinstance(mapping := attention_mask, dict):`). Other assignment expressions (in a `while` test, an
        `elif`, a comprehension, a call argument, …) are reported without a fix.

    Why it breaks graph mode:
        MindSpore's graph compiler has no assignment expressions. Measured on MindSpore 2.10
        (bench/limits, row 2): GRAPH (LAX), STRICT, a dynamic batch and export all fail with
        "Unsupported expression 'NamedExpr'."

    Example:
        if (n := x.shape[1]) > 1:
            x = x * n
        # becomes
        n = x.shape[1]
        if n > 1:
            x = x * n

    Fix safety:
        Safe: the value is computed once, at the same point of the evaluation as before (nothing in the
        test is evaluated before it), and bound to the same name. A `while` test runs on every iteration
        and an `elif` test only when the branches above were not taken, so those are reported, not
        moved.
    """

    CODE = "GM603"
    NAME = "walrus"
    BREAKS = breaks(GRAPH, STRICT, DYNAMIC, EXPORT, note="NamedExpr is an unsupported expression")
    EXPLAINS = (
        explains(
            r"Unsupported expression 'NamedExpr'",
            GRAPH,
            STRICT,
            DYNAMIC,
            EXPORT,
        ),
    )

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        statement = self._hoistable_if(node)
        name = self.ctx.code(node.target)
        message = (
            f"`{name} := ...` in {self.ctx.where()}: MindSpore's graph compiler rejects assignment expressions "
            f"(\"Unsupported expression 'NamedExpr'\")"
        )
        if statement is None or not isinstance(node.target, cst.Name):
            self.report(node, message + f"; assign `{name} = ...` in a statement of its own before it is used")
            return
        test = statement.test.visit(_Replace(node, cst.Name(node.target.value)))
        first = assign_line(node.target.value, node.value.with_changes(lpar=(), rpar=()))
        self.report(
            statement,
            message + f"; assign `{name} = ...` before the `if`",
            cst.FlattenSentinel(
                [
                    first.with_changes(leading_lines=statement.leading_lines),
                    statement.with_changes(test=test, leading_lines=()),
                ]
            ),
        )

    def _hoistable_if(self, node: cst.NamedExpr) -> cst.If | None:
        """The `if` whose test evaluates `node` first (not an `elif`), or None."""
        child: cst.CSTNode = node
        parent = self.ctx.parents.get(child)
        while parent is not None and _first_operand(parent) is child:
            child, parent = parent, self.ctx.parents.get(parent)
        if not (isinstance(parent, cst.If) and parent.test is child):
            return None
        above = self.ctx.parents.get(parent)
        if isinstance(above, cst.If) and above.orelse is parent:
            return None  # an elif
        return parent


def _first_operand(node: cst.CSTNode) -> cst.CSTNode | None:
    """What evaluating `node` evaluates first (after looking up a plain name: no side effect)."""
    if isinstance(node, cst.Comparison | cst.BinaryOperation | cst.BooleanOperation):
        return node.left
    if isinstance(node, cst.UnaryOperation):
        return node.expression
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.args:
        return node.args[0]  # `isinstance(m := mask, dict)`: the callee is a name, its first argument comes first
    if isinstance(node, cst.Arg) and not node.star:
        return node.value
    return None


class _Replace(cst.CSTTransformer):
    def __init__(self, old: cst.CSTNode, new: cst.CSTNode) -> None:
        super().__init__()
        self.old, self.new = old, new

    def on_leave(self, original, updated):  # type: ignore[override]
        return self.new if original is self.old else updated
