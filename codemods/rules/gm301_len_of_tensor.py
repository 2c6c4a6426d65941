import libcst as cst

from graphmend.messages import explains
from graphmend.rule import Rule
from graphmend.targets import DYNAMIC, breaks


class LenOfTensor(Rule):
    """`len(t)` on a tensor in graph code → `t.shape[0]`.

    What it does:
        Finds `len(x)` inside `construct` (and other graph code) where `x` is a tensor and rewrites it to
        `x.shape[0]`. `len` of a list, tuple, dict, string, of `self.layers` (a CellList), of `x.shape`,
        or of anything graphmend cannot tell is a tensor is left alone: a parameter counts as a tensor
        only when it is annotated `Tensor` (and not looped over or tested for truth, as ported code
        annotates lists and flags that way) or used as only an array can be (`x.view(...)`, `x[:, 0]`,
        `self.conv(x)`) before it is rebound, because detection heads take lists of feature maps.

    Why it breaks graph mode:
        With a dynamic batch, `len(x)` is not a compile-time int: used as a shape it gives garbage.
        `n = len(x); x.view(n, -1)` fails with "For primitive[Reshape], the accumulate of x_shape must be
        equal to out_shape" (measured), while `n = x.shape[0]` works in
        every configuration. Seed article 002 names `len()` on tensors as an export pitfall.

    Example:
        n = len(x)
        logits = self.head(feats.view(n, -1))
        # becomes
        n = x.shape[0]
        logits = self.head(feats.view(n, -1))

    Fix safety:
        Safe: for a tensor, `len(x)` and `x.shape[0]` are the same int (both fail on a 0-d tensor).
        Unsafe when the call holds a comment (`len(  # why\n x)`): the fix would drop it.
    """

    CODE = "GM301"
    NAME = "len-of-tensor"
    BREAKS = breaks(DYNAMIC, note="len of a dynamic batch used as a shape; static shapes fold it")
    EXPLAINS = (explains(r"For primitive\[Reshape\], the accumulate of x_shape must be equal to out_shape", DYNAMIC),)
    FIX = "safe/unsafe"

    def visit_Call(self, node: cst.Call) -> None:
        if not self.values.is_len_call(node):
            return
        tensor = node.args[0].value
        if not self.values.is_tensor(tensor):
            return
        receiver = (
            tensor if _binds_tightly(tensor) else tensor.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        )
        replacement = cst.Subscript(
            value=cst.Attribute(value=receiver, attr=cst.Name("shape")),
            slice=[cst.SubscriptElement(cst.Index(cst.Integer("0")))],
            lpar=node.lpar,
            rpar=node.rpar,
        )
        message = (
            f"`{self.ctx.code(node)}` in {self.ctx.where()} reads dimension 0 of a tensor (the batch, for inputs): "
            f"with a dynamic shape it is not a compile-time int and, used as a shape, gives garbage; use "
            f"`{self.ctx.code(replacement)}`"
        )
        self.report(node, message, replacement, "safe")


def _binds_tightly(node: cst.BaseExpression) -> bool:
    """`x`, `self.x`, `f(x)`, `x[0]`, `(a + b)`: `.shape` can follow without parentheses."""
    return bool(node.lpar) or isinstance(node, cst.Name | cst.Attribute | cst.Call | cst.Subscript)
