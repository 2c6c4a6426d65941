from __future__ import annotations

import libcst as cst

from graphmend.messages import explains
from graphmend.rule import Rule
from graphmend.targets import EXPORT, STRICT, breaks
from graphmend.values import Caution


class InTensor(Rule):
    """`v in t` / `v not in t` on a tensor in graph code → `(t == v).any()` / `not (t == v).any()`.

    What it does:
        Rewrites a membership test whose container is, or may be, a tensor (an op's result, a `construct`
        input) and whose element is a number literal or a tensor. Other membership tests (in a tuple, a
        list, a dict, a string; an element of unknown type; a chained comparison) are left alone.

    Why it breaks graph mode:
        MindSpore evaluates `in` in graph code as a constant expression. Measured on MindSpore 2.10
        (bench/limits row 19; tests/verify_rules/limits/gm609_in_tensor.py): `2 in x` on an input tensor
        ran with PyNative's numbers in GRAPH (LAX, through the Python fallback) and with a dynamic batch,
        and failed under STRICT and in export with "the inputs should be constant, but found variable
        ... to be nonconstant". `x == 2` and `.any()` are graph ops: the fix ran with PyNative's numbers
        in all four.

    Example:
        if 2 in labels:
            ...
        y = x * 3 if pad not in ids else x
        # becomes
        if (labels == 2).any():
            ...
        y = x * 3 if not (ids == pad).any() else x

    Fix safety:
        Unsafe when the container may not be a tensor (a `construct` parameter nothing types: a tuple input
        would break). Otherwise safe where the result is only tested (an `if`, `while` or
        conditional-expression test, `not`, `and`/`or` inside a test, `assert`): PyNative's
        `Tensor.__contains__` is `(element == self).any()` turned into a Python bool, and a test reads
        the one-element tensor the same way. Unsafe elsewhere (`found = 2 in x`): the value becomes a
        bool Tensor instead of a Python bool.
    """

    CODE = "GM609"
    NAME = "in-tensor"
    BREAKS = breaks(STRICT, EXPORT, note="LAX runs it through the Python fallback")
    EXPLAINS = (explains(r"the inputs should be constant, but found variable", STRICT, EXPORT),)
    FIX = "safe/unsafe"

    def visit_Comparison(self, node: cst.Comparison) -> None:
        if len(node.comparisons) != 1:
            return
        (target,) = node.comparisons
        if not isinstance(target.operator, cst.In | cst.NotIn):
            return
        element, container = node.left, target.comparator
        certain = self.values.is_tensor(container)
        if not (self.values.is_tensor(container, Caution.POSSIBLE)):
            return
        if not (_is_number(element) or self.values.is_tensor(element)):
            return
        negated = isinstance(target.operator, cst.NotIn)
        equal = cst.Comparison(
            left=container,
            comparisons=[cst.ComparisonTarget(cst.Equal(), element)],
            lpar=[cst.LeftParen()],
            rpar=[cst.RightParen()],
        )
        found: cst.BaseExpression = cst.Call(func=cst.Attribute(value=equal, attr=cst.Name("any")))
        if negated:
            found = cst.UnaryOperation(operator=cst.Not(), expression=found)
        replacement = found.with_changes(lpar=node.lpar, rpar=node.rpar)
        tested = self._tested(node)
        code, op = self.ctx.code(node), "not in" if negated else "in"
        message = (
            f'`{code}` in {self.ctx.where()}: `{op}` on a tensor fails under STRICT and in export ("the inputs '
            f'should be constant"); `{self.ctx.code(replacement)}` is the same test in graph ops'
        )
        if not certain:
            message += f" (unsafe: `{self.ctx.code(container)}` may not be a tensor; a tuple would break)"
        elif not tested:
            message += " (unsafe here: the value becomes a bool Tensor instead of a Python bool)"
        self.report(node, message, replacement, "safe" if certain and tested else "unsafe")

    def _tested(self, node: cst.BaseExpression) -> bool:
        """`node`'s value is only tested for truth: the test of an if/while/conditional/assert, possibly
        through `not` and `and`/`or`."""
        child: cst.CSTNode = node
        parent = self.ctx.parents.get(child)
        while isinstance(parent, cst.BooleanOperation) or (
            isinstance(parent, cst.UnaryOperation) and isinstance(parent.operator, cst.Not)
        ):
            child, parent = parent, self.ctx.parents.get(parent)
        if isinstance(parent, cst.If | cst.While | cst.IfExp):
            return parent.test is child
        return isinstance(parent, cst.Assert) and parent.test is child


def _is_number(node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus | cst.Plus):
        node = node.expression
    return isinstance(node, cst.Integer | cst.Float)
