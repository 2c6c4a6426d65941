from __future__ import annotations

import libcst as cst

from graphmend.deploy import EXPORTS
from graphmend.rule import FileContext, Rule
from graphmend.targets import EXPORT, breaks


class ExportFrozenInput(Rule):
    """A Python number passed to `mindspore.export` as an input of the Cell → `mindspore.mutable(...)`.

    What it does:
        Finds `ms.export(net, x, 2, file_name=..., file_format="MINDIR")` (any import spelling of
        `mindspore.export`) where an input after the Cell is a Python number, or a tuple or list of
        numbers, written in the call. Bools, strings and `None` are left alone: they are options, which
        an exported graph is meant to fix. Anywhere in the file, not only in graph code: the call is in
        the export script.

    Why it breaks graph mode:
        `export` compiles the Cell with every non-Tensor input as a constant: the MindIR has no input for
        it. Measured on MindSpore 2.10 (bench/limits row 44, `scalar_input_export`, and by hand):
        `export(net, x, 2)` of `construct(self, x, k): return x * k`, loaded back with `nn.GraphCell`,
        computes `x * 2` for every call — with no error where it is called with the input alone, while
        a call that passes 3 fails with "The input number of parameters is not Compatible". Exported
        with `mutable(2)`, the MindIR takes `k` as an input: called with `Tensor(3)` or `mutable(3)` it
        returns `x * 3`; floats, tuples and lists of numbers wrapped the same way stay inputs too.

    Example:
        ms.export(net, x, 2, file_name="net", file_format="MINDIR")
        # becomes
        ms.export(net, x, ms.mutable(2), file_name="net", file_format="MINDIR")

    Fix safety:
        Unsafe: the exported file changes interface — it now expects the value as an input, so code that
        loads it and calls it with the Tensor inputs alone fails until it passes the value too; and a
        `construct` that uses the number as a Python int (`range(k)`, a shape) then sees a variable
        scalar. When the number is meant to stay fixed, suppress the finding (`# graphmend: ignore[GM613]`).
    """

    CODE = "GM613"
    NAME = "export-frozen-input"
    BREAKS = breaks(together=(EXPORT,), note="a number passed to export is frozen into the MindIR")
    FIX = "unsafe"
    VISITS = "module"

    @classmethod
    def may_find(cls, facts) -> bool:
        return b"export" in facts.data  # `mindspore.export` is spelled with it, however imported

    def __init__(self, ctx: FileContext) -> None:
        super().__init__(ctx)
        # every spelling of `mindspore.export` names it in the file: an import (`from mindspore import
        # export as save`) or an attribute (`ms.export`); most files have neither, and resolving each
        # call's name was most of this rule's cost
        self._may_export = "export" in ctx.source

    def visit_Call(self, node: cst.Call) -> None:
        if not self._may_export or not self.ctx.names(node.func) & EXPORTS:
            return
        for position, argument in enumerate(node.args):
            if argument.keyword is not None or argument.star:
                break
            if position == 0 or not _numbers(argument.value):
                continue
            code = self.ctx.code(argument.value)
            mutable, needed = self.ctx.bindings.reference("mindspore.mutable")
            value = argument.value
            wrapped = value if isinstance(value, cst.Tuple) else value.with_changes(lpar=[], rpar=[])
            replacement = cst.Call(func=mutable, args=[cst.Arg(wrapped)])
            self.report(
                argument.value,
                f"`{code}`, input {position} of `{self.ctx.code(node.func)}(...)`, is frozen into the MindIR as a "
                f"constant: the exported graph has no input for it and computes with `{code}` whatever its caller "
                f'wants (a call that passes a value fails: "The input number of parameters is not Compatible"); '
                f"pass `mutable({code})` to keep it an input (unsafe: the MindIR's callers must then pass it), or "
                f"suppress this when it is meant to stay fixed",
                replacement,
                "unsafe",
                (needed,),
            )


def _numbers(node: cst.BaseExpression) -> bool:
    """A number (`2`, `-0.5`), or a non-empty tuple or list of numbers, written in the call."""
    if isinstance(node, cst.Integer | cst.Float):
        return True
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus | cst.Plus):
        return isinstance(node.expression, cst.Integer | cst.Float)
    if isinstance(node, cst.Tuple | cst.List):
        return bool(node.elements) and all(isinstance(e, cst.Element) and _numbers(e.value) for e in node.elements)
    return False
