import libcst as cst
from libcst.helpers import parse_template_expression

from graphmend.rule import Rule
from graphmend.targets import breaks

# functional dropouts whose `training` defaults to True, with its position among the parameters
_DROPOUTS = {
    "mindspore.ops.dropout": 2,  # (input, p=0.5, training=True, seed=None)
    "mindspore.ops.dropout1d": 2,  # (input, p=0.5, training=True)
    "mindspore.ops.dropout2d": 2,
    "mindspore.ops.dropout3d": 2,
}


class DropoutTraining(Rule):
    """`ops.dropout(x, p)` without `training=` → `training=self.training` (drops only while training).

    What it does:
        Finds `ops.dropout`, `ops.dropout1d`, `ops.dropout2d` and `ops.dropout3d` calls in graph code
        that do not pass `training`, and adds `training=self.training` inside a Cell method. Outside a
        Cell there is no `self.training` to pass: the call is reported without a fix.

    Why it breaks graph mode:
        Unlike `nn.Dropout`, the functional dropout defaults to `training=True`, even inside a Cell in
        eval mode (`set_train(False)`, the default): inference and exported MindIR files keep dropping
        activations at random, in every mode (measured: a Cell calling `ops.dropout` in eval mode returned
        new values on every call; `ops.dropout2d` too). Code ported from torch's `F.dropout(x, p,
        self.training)` that lost its last argument does this silently.

    Example:
        attn_weights = ops.dropout(attn_weights, p=self.attention_dropout)
        # becomes
        attn_weights = ops.dropout(attn_weights, p=self.attention_dropout, training=self.training)

    Fix safety:
        Unsafe: in eval mode the output changes from randomly dropped to the input itself — what the
        author almost surely meant, but a different result. In training mode nothing changes.
    """

    CODE = "GM509"
    NAME = "dropout-training"
    BREAKS = breaks(
        silent=True,
        pynative=True,
        note="eval-mode Cells and exported models drop at random, in PyNative too; measured in training mode, "
        "where every check passes",
    )
    FIX = "unsafe"

    def visit_Call(self, node: cst.Call) -> None:
        name = next((n for n in self.ctx.names(node.func) if n in _DROPOUTS), None)
        if name is None or not node.args or _passes_training(node, _DROPOUTS[name]):
            return
        message = (
            f"`{self.ctx.code(node.func)}(...)` in {self.ctx.where()} defaults to training=True: it drops at "
            "random even in an eval-mode Cell"
        )
        if not self._has_self():
            self.report(node, message + "; pass `training=` explicitly (there is no `self.training` here)")
            return
        fixed = node.with_changes(args=_with_training(node.args))
        self.report(node, message + "; pass `training=self.training`", fixed, "unsafe")

    def _has_self(self) -> bool:
        current = self.ctx.current
        if current is None or current.cell is None:
            return False
        params = current.node.params.params
        return bool(params) and params[0].name.value == "self"


def _passes_training(node: cst.Call, position: int) -> bool:
    if any(a.star for a in node.args):
        return True  # `*args` may carry it: leave the call alone
    positional = [a for a in node.args if a.keyword is None]
    return len(positional) > position or any(a.keyword is not None and a.keyword.value == "training" for a in node.args)


def _with_training(args: tuple[cst.Arg, ...] | list[cst.Arg]) -> list[cst.Arg]:
    """The arguments plus `training=self.training`, laid out like the others (one per line stays so)."""
    last = args[-1]
    one_per_line = isinstance(last.comma, cst.Comma) and len(args) > 1 and isinstance(args[-2].comma, cst.Comma)
    separator = args[-2].comma if one_per_line else cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
    training = cst.Arg(
        parse_template_expression("self.training"),
        keyword=cst.Name("training"),
        equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")),
        comma=last.comma,  # a trailing comma stays at the end
    )
    return [*args[:-1], last.with_changes(comma=separator), training]
