from __future__ import annotations

import libcst as cst

from graphmend.messages import explains
from graphmend.rule import Rule
from graphmend.targets import DYNAMIC, EXPORT, GRAPH, STRICT, breaks
from graphmend.values import Caution

_SINGLETONS = {"None", "True", "False", "Ellipsis"}


class TensorIdentity(Rule):
    """`a is b` / `a is not b` between tensors in graph code.

    What it does:
        Reports an identity comparison whose left side is a tensor graphmend is sure of and whose right
        side is not `None`, `True`, `False` or a literal, and could be a tensor.

    Why it breaks graph mode:
        A graph has values, not objects: identity between two tensors has no meaning there. Measured on
        MindSpore 2.10 (bench/limits, row 18): after `y = x`, `x * 2 if y is x else x` returns `x * 2` in
        PyNative but `x` in GRAPH (LAX) and with a dynamic batch, with no error (the identity is taken as
        false), and STRICT and export fail in the backend on the `is_` node ("Failed to find input",
        "Failed to get from actor by backend node"). `is` on strings and on `None` ran with PyNative's
        numbers.

    Example:
        if mask is x:          # the same tensor object?
            ...
        # by hand: keep a Python flag of how the tensor was made, or compare values (`ops.equal(a, b).all()`)

    Fix safety:
        No fix: what the identity stood for (the same object, the same values, an unchanged input) is the
        author's decision; `==` on tensors compares element by element.
    """

    CODE = "GM608"
    NAME = "tensor-identity"
    BREAKS = breaks(
        GRAPH,
        STRICT,
        DYNAMIC,
        EXPORT,
        silent=True,
        note="GRAPH and a dynamic batch: silently false; STRICT and export: a backend error",
    )
    EXPLAINS = (
        explains(
            r"Failed to get from actor by backend node:.*ValueNode<Primitive> is_",
            STRICT,
            EXPORT,
        ),
    )
    FIX = "none"

    def visit_Comparison(self, node: cst.Comparison) -> None:
        left = node.left
        for target in node.comparisons:
            if isinstance(target.operator, cst.Is | cst.IsNot) and self._tensors(left, target.comparator):
                op = "is" if isinstance(target.operator, cst.Is) else "is not"
                self.report(
                    node,
                    f"`{self.ctx.code(node)}` in {self.ctx.where()} compares tensor identity: in graph mode it is "
                    f"taken as false with no error under LAX (other results than PyNative), and STRICT and "
                    f"export fail; `{op}` is for `None`, `True` and `False` — keep a Python flag instead",
                )
                return
            left = target.comparator

    def _tensors(self, left: cst.BaseExpression, right: cst.BaseExpression) -> bool:
        for side in (left, right):
            if isinstance(side, cst.Name) and side.value in _SINGLETONS:
                return False
            if isinstance(side, cst.BaseString | cst.Integer | cst.Float):
                return False
        return self.values.is_tensor(left) and self.values.is_tensor(right, Caution.POSSIBLE)
