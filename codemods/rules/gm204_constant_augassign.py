from __future__ import annotations

from functools import cached_property

import libcst as cst
from libcst.metadata import Assignment

from graphmend.rule import Rule
from graphmend.targets import DYNAMIC, EXPORT, GRAPH, STRICT, breaks
from graphmend.values import assigned_value

# `a op= b` → `a = a op b`, and how tightly each operator binds (to parenthesize `b` when needed)
_OPERATORS: dict[type, tuple[type, int]] = {
    cst.BitOrAssign: (cst.BitOr, 1),
    cst.BitXorAssign: (cst.BitXor, 2),
    cst.BitAndAssign: (cst.BitAnd, 3),
    cst.LeftShiftAssign: (cst.LeftShift, 4),
    cst.RightShiftAssign: (cst.RightShift, 4),
    cst.AddAssign: (cst.Add, 5),
    cst.SubtractAssign: (cst.Subtract, 5),
    cst.MultiplyAssign: (cst.Multiply, 6),
    cst.MatrixMultiplyAssign: (cst.MatrixMultiply, 6),
    cst.DivideAssign: (cst.Divide, 6),
    cst.FloorDivideAssign: (cst.FloorDivide, 6),
    cst.ModuloAssign: (cst.Modulo, 6),
    cst.PowerAssign: (cst.Power, 7),
}
_PRECEDENCE = {binary: rank for binary, rank in _OPERATORS.values()}
_LOOSE = (cst.BooleanOperation, cst.Comparison, cst.IfExp, cst.Lambda, cst.NamedExpr, cst.Yield)


class ConstantAugAssign(Rule):
    """`+=` (and every augmented assignment) on a name bound to a constant tensor → `name = name + ...`.

    What it does:
        Finds `name += value` (`-=`, `*=`, `/=`, ...) in graph code where `name` was bound, earlier in the
        same function, to a tensor written as a constant: `Tensor(...)` / `ms.tensor(...)`, or an attribute
        that `__init__` sets to one (`loss = self.zero`, with `self.zero = Tensor(0.0)`). It rewrites the
        statement to `name = name + value`, parenthesizing `value` where the order of evaluation needs it.

    Why it breaks graph mode:
        It does not fail: it gives wrong numbers. GRAPH_MODE (LAX and STRICT, and an exported MindIR)
        compiles `+=` on a constant tensor into an in-place update of that constant, so the change survives
        into the next call: an accumulator that starts at `Tensor(0.0)` returns 1, 2, 3 for three identical
        calls, where PyNative returns 1, 1, 1. The pattern sits in the RPN heads of detection models
        (`loss = self.loss; loss += ...`). A name bound to a computed tensor (`ops.zeros(...)`,
        `x.sum() * 0`) is not affected and not reported.

    Example:
        loss = ms.Tensor(0.0, ms.float32)
        for i in range(self.levels):
            loss += self.smooth_l1(pred * (i + 1), target).mean()
        # becomes
            loss = loss + self.smooth_l1(pred * (i + 1), target).mean()

    Fix safety:
        Safe: for a tensor, `a = a + b` is what `a += b` computes in PyNative, and it is what GRAPH_MODE
        should compute. The right side is parenthesized when it binds as loosely as the operator
        (`a -= b + c` → `a = a - (b + c)`), so the order of floating-point operations is kept. Names that
        are also bound to a list, a numpy array (where `+=` really is in place) or through unpacking are
        left alone.
    """

    CODE = "GM204"
    NAME = "constant-augassign"
    BREAKS = breaks(GRAPH, STRICT, DYNAMIC, EXPORT, silent=True, note="the constant drifts from call to call")

    @cached_property
    def _augmented(self) -> set[int]:
        """The targets of the file's `+=`-like statements (a statement walk: no parent map needed)."""
        return {id(s.target) for s in self.ctx.statements if isinstance(s, cst.AugAssign)}

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        target = node.target
        if not isinstance(target, cst.Name) or type(node.operator) not in _OPERATORS:
            return
        constant = self._constant_binding(node, target)
        if constant is None:
            return
        name = target.value
        binary, _ = _OPERATORS[type(node.operator)]
        symbol = _symbol(binary)
        message = (
            f"`{name} {symbol}= ...` in {self.ctx.where()} updates the constant tensor `{name}` is bound to "
            f"(`{self.ctx.code(constant)}`) in place: GRAPH_MODE keeps the change for the next call, so the "
            f"result drifts from call to call (PyNative does not); write `{name} = {name} {symbol} ...`"
        )
        self.report(node, message, _rewrite(node, target, binary))

    def _constant_binding(self, node: cst.AugAssign, target: cst.Name) -> cst.BaseExpression | None:
        """The constant tensor `target` was bound to before `node`, if no other binding makes it unsafe."""
        scope = self.ctx.scopes.get(target)
        if scope is None:
            return None
        bindings: list[tuple[cst.CSTNode, cst.BaseExpression]] = []
        for assignment in scope[target.value]:
            if not isinstance(assignment, Assignment):
                return None  # a global, an import, a class or a function of that name
            binding = assignment.node
            if id(binding) in self._augmented:
                continue
            value = assigned_value(self.ctx, binding)
            if value is None or _mutable(value) or self.values.is_host_numpy(value):
                return None  # unpacking, a loop target, a parameter, or a container updated in place
            bindings.append((binding, value))
        if not any(self.values.is_constant_tensor(value) for _, value in bindings):
            return None  # decided without positions, which cost a pass over the file
        here = _start(self.ctx, node)
        latest: tuple[tuple[int, int], cst.BaseExpression] | None = None
        for binding, value in bindings:
            where = _start(self.ctx, binding)
            if where < here and (latest is None or where > latest[0]):
                latest = (where, value)
        # the binding just before: after `t = Tensor(0); t = t + x`, `t += 1` updates a computed tensor
        if latest is not None and self.values.is_constant_tensor(latest[1]):
            return latest[1]
        return None


def _start(ctx, node: cst.CSTNode) -> tuple[int, int]:
    start = ctx.positions[node].start
    return start.line, start.column


def _rewrite(node: cst.AugAssign, target: cst.Name, binary: type) -> cst.Assign:
    right = node.value
    if _needs_parentheses(right, binary):
        right = right.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    space = cst.SimpleWhitespace(" ")
    value = cst.BinaryOperation(
        left=cst.Name(target.value),
        operator=binary(whitespace_before=space, whitespace_after=space),
        right=right,
    )
    equal = cst.AssignTarget(
        target=target,
        whitespace_before_equal=node.operator.whitespace_before,
        whitespace_after_equal=node.operator.whitespace_after,
    )
    return cst.Assign(targets=[equal], value=value)


def _needs_parentheses(node: cst.BaseExpression, binary: type) -> bool:
    if node.lpar:
        return False
    if isinstance(node, cst.BinaryOperation):
        # equal precedence too: `a - (b - c)`, and `a + (b + c)` keeps the float rounding of `a += b + c`
        return _PRECEDENCE[type(node.operator)] <= _PRECEDENCE[binary]
    if isinstance(node, cst.UnaryOperation):
        return isinstance(node.operator, cst.Not)
    return isinstance(node, _LOOSE)


def _mutable(value: cst.BaseExpression) -> bool:
    return isinstance(value, (cst.List, cst.Dict, cst.Set, cst.ListComp, cst.DictComp, cst.SetComp))


def _symbol(binary: type) -> str:
    space = cst.SimpleWhitespace("")
    return cst.Module([]).code_for_node(binary(whitespace_before=space, whitespace_after=space))
