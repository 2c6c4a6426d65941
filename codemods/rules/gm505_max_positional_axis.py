from __future__ import annotations

import libcst as cst

from graphmend.builders import arg, call
from graphmend.calls import method_call
from graphmend.rule import Rule
from graphmend.targets import DYNAMIC, EXPORT, GRAPH, STRICT, breaks
from graphmend.values import Caution

TUPLE, VALUES = "tuple", "values"


class MaxPositionalAxis(Rule):
    """Positional `x.max(k)` / `x.min(k)` → one meaning in every mode, chosen from how the result is used.

    What it does:
        Finds `x.max(k)`, `x.max(k, keepdim)` and the same for `min` in graph code, where `x` may be a
        tensor, and looks at how the result is used:
        - as a pair (`v, i = x.max(1)`, `x.max(1)[0]`, `x.max(1).indices`, or a name used only so):
          rewritten to `ops.max(x, axis=k)`, which returns (values, indices) in every mode;
        - as a tensor (`x.max(-2).expand_dims(-1)`, `x.max(-1) > t`, `ops.exp(x.max(1))`): rewritten to
          `x.max(axis=k)`, the values in every mode.
        Anything else (returned, passed to your own function) is reported without a fix. `x.max()`,
        `x.max(axis=k)` and `x.max(dim=k)` mean the same in both modes and are left alone.

    Why it breaks graph mode:
        The positional overload differs between the modes: PyNative follows torch and returns a
        (values, indices) tuple, GRAPH_MODE returns the values only (measured for `min`
        too). Torch-style code (`x.max(1)[0]`) silently takes the first row of the values in
        GRAPH_MODE; MindSpore-style code (`x.max(-2).expand_dims(-1)`) fails in PyNative.

    Example:
        topk_logits = enc_outputs_class.max(-1)[0]
        # becomes
        topk_logits = ops.max(enc_outputs_class, axis=-1)[0]

    Fix safety:
        Safe. Used as a pair, the rewrite is PyNative's meaning in every mode. Used as a tensor, the
        original fails in PyNative (a tuple has no tensor methods or arithmetic: measured), and the
        rewrite is GRAPH_MODE's meaning, the values, in every mode. Where the use does not tell, there
        is no fix.
    """

    CODE = "GM505"
    NAME = "max-positional-axis"
    BREAKS = breaks(GRAPH, STRICT, DYNAMIC, EXPORT, silent=True, note="silently values instead of a pair, or PyNative")

    def visit_Call(self, node: cst.Call) -> None:
        receiver = method_call(node, "max", "min")
        args = node.args
        plain = 1 <= len(args) <= 2 and all(a.keyword is None and not a.star for a in args)
        if receiver is None or not plain or not self.values.is_tensor(receiver, Caution.POSSIBLE):
            return
        method = node.func.attr.value  # type: ignore[attr-defined]
        use, target = self._use(node)
        message = (
            f"`{self.ctx.code(node)}` in {self.ctx.where()} returns (values, indices) in PyNative but only "
            "the values in GRAPH_MODE"
        )
        axis = [arg(args[0].value, "axis")] + ([arg(args[1].value, "keepdims")] if len(args) == 2 else [])
        if use == TUPLE:
            func, needed = self.ctx.bindings.reference(f"mindspore.ops.{method}")
            pair = call(func, [arg(receiver), *axis])
            replacement = _named_item(pair, target) if target is not node else pair
            self.report(
                target,
                message + f"; the pair is used here: `ops.{method}(..., axis=...)`",
                replacement,
                "safe",
                (needed,),
            )
        elif use == VALUES:
            values = node.with_changes(args=call(node.func, axis).args)
            self.report(node, message + f"; a tensor is used here: `.{method}(axis=...)`", values)
        else:
            self.report(
                node,
                message + f": write `ops.{method}(x, axis=k)` for the pair or `x.{method}(axis=k)` for the values",
            )

    # -- how the result is used ---------------------------------------------------------------------

    def _use(self, node: cst.Call) -> tuple[str | None, cst.CSTNode]:
        """TUPLE, VALUES or None, and the node to replace (the `.values` around the call, if any)."""
        parent = self.ctx.parents.get(node)
        if isinstance(parent, cst.Attribute) and parent.attr.value in ("values", "indices"):
            return TUPLE, parent
        if isinstance(parent, cst.Assign) and len(parent.targets) == 1:
            target = parent.targets[0].target
            if isinstance(target, cst.Tuple | cst.List):
                return (TUPLE if len(target.elements) == 2 else None), node
            if isinstance(target, cst.Name):
                return self._name_use(target), node
        return _direct_use(self.ctx, node, parent), node

    def _name_use(self, target: cst.Name) -> str | None:
        """How every read of a name bound to the result uses it (None when they disagree)."""
        scope = self.ctx.scopes.get(target)
        if scope is None or target.value not in scope:
            return None
        uses = set()
        for assignment in scope[target.value]:
            if getattr(assignment, "node", None) is target:
                for access in assignment.references:
                    read = access.node
                    parent = self.ctx.parents.get(read)
                    if isinstance(parent, cst.Attribute) and parent.attr.value in ("values", "indices"):
                        uses.add(None)  # `.values` on the name: rewrite by hand
                    elif isinstance(parent, cst.Assign) and isinstance(parent.targets[0].target, cst.Tuple | cst.List):
                        uses.add(TUPLE if len(parent.targets[0].target.elements) == 2 else None)
                    else:
                        uses.add(_direct_use(self.ctx, read, parent))
        return uses.pop() if len(uses) == 1 else None


def _direct_use(ctx, node: cst.CSTNode, parent: cst.CSTNode | None) -> str | None:
    """How an expression's parent uses it: indexed as a pair, as a tensor where a tuple fails, or unknown."""
    if isinstance(parent, cst.Subscript) and parent.value is node:
        return TUPLE if _pair_index(parent) else None
    if isinstance(parent, cst.Attribute) and parent.value is node:
        return VALUES if parent.attr.value not in ("count", "index") else None
    if (
        isinstance(parent, cst.Comparison)
        or isinstance(parent, cst.UnaryOperation)
        and not isinstance(parent.operator, cst.Not)
    ):
        return VALUES
    if isinstance(parent, cst.BinaryOperation):
        # A tuple with a number raises, except `pair * 2` (repeats it); with a tensor, MindSpore may turn
        # an integer pair into one tensor and broadcast silently: only number literals are certain.
        other = parent.right if parent.left is node else parent.left
        repeats = isinstance(parent.operator, cst.Multiply) and isinstance(other, cst.Integer)
        return VALUES if isinstance(other, cst.Integer | cst.Float) and not repeats else None
    if isinstance(parent, cst.Arg) and parent.keyword is None and not parent.star:
        outer = ctx.parents.get(parent)
        ops = (
            [n for n in ctx.names(outer.func) if n.startswith("mindspore.ops.")] if isinstance(outer, cst.Call) else []
        )
        if ops and not any(n.removeprefix("mindspore.ops.") in _TAKE_SEQUENCES for n in ops):
            return VALUES
    return None


# ops functions that accept a tuple of tensors: a pair passed to them does not fail
_TAKE_SEQUENCES = frozenset({
    "cat", "concat", "stack", "hstack", "vstack", "dstack", "column_stack", "tuple_to_array", "print_",
    "depend", "meshgrid", "broadcast_tensors", "addn", "block_diag", "cartesian_prod", "stop_gradient",
})  # fmt: skip


def _pair_index(subscript: cst.Subscript) -> bool:
    """`[0]`, `[1]`, `[-1]`, `[-2]`: an item of a pair."""
    if len(subscript.slice) != 1 or not isinstance(subscript.slice[0].slice, cst.Index):
        return False
    value = subscript.slice[0].slice.value
    negative = isinstance(value, cst.UnaryOperation) and isinstance(value.operator, cst.Minus)
    if negative:
        value = value.expression  # type: ignore[attr-defined]
    return isinstance(value, cst.Integer) and value.value in (("1", "2") if negative else ("0", "1"))


def _named_item(pair: cst.Call, attribute: cst.CSTNode) -> cst.Subscript:
    """`ops.max(x, axis=k)` + `.values` → `ops.max(x, axis=k)[0]` (`.indices` → `[1]`)."""
    index = "0" if attribute.attr.value == "values" else "1"  # type: ignore[attr-defined]
    return cst.Subscript(pair, [cst.SubscriptElement(cst.Index(cst.Integer(index)))])
