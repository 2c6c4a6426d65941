from __future__ import annotations

import libcst as cst

from graphmend.builders import arg, as_tuple
from graphmend.messages import explains
from graphmend.rule import Rule
from graphmend.rules._torch_table import OTHER_RULES, TORCH_DTYPES, TORCH_FUNCTIONS, TorchOp, torch_name
from graphmend.targets import DYNAMIC, EXPORT, GRAPH, STRICT, breaks
from graphmend.values import Values


class TorchCall(Rule):
    """`torch.*` left in MindSpore graph code → the `ops` function with the same meaning, or a report.

    What it does:
        Finds calls of `torch` functions (imported under any alias, or the bare name `torch` nothing
        binds) in graph code and rewrites those in the table `TORCH_FUNCTIONS` of
        `codemods/rules/_torch_table.py` to `mindspore.ops` (`torch.cat(xs, dim=1)` →
        `ops.cat(xs, axis=1)`, `torch.gather` → `ops.gather_elements`, `torch.transpose` →
        `ops.swapaxes`, `torch.zeros(2, 3)` → `ops.zeros((2, 3))`), and torch dtypes to MindSpore ones
        (`torch.float32` → `ms.float32`). `torch.einsum` is GM511's (`OTHER_RULES`). Every other torch
        reference is reported. Code outside graph code (weight converters that use both frameworks) is not
        looked at.

    Why it breaks graph mode:
        MindSpore cannot compile torch calls, and torch tensors are not MindSpore tensors: a file that
        still calls torch in `construct` fails in every mode (or fails to import where torch is not
        installed). The mapped `ops` functions are graph-native.

    Example:
        scores = torch.softmax(torch.matmul(q, k), dim=-1)
        # becomes
        scores = ops.softmax(ops.matmul(q, k), axis=-1)

    Fix safety:
        Safe: each table entry has the same arguments and defaults once mapped (torch's
        `flatten(start_dim=0)` default is written out). A call with arguments the `ops` function does
        not take, or with sizes that may be one int or a sequence, is reported without a fix. The
        `import torch` line is left for you to remove.
    """

    CODE = "GM510"
    NAME = "torch-call"
    BREAKS = breaks(GRAPH, STRICT, DYNAMIC, EXPORT, pynative=True)
    EXPLAINS = (
        explains(r"'NoneType' object has no attribute '\w+'", GRAPH, DYNAMIC),
        explains(r"In JIT strict mode, cannot get attributes \w+ or the None object has no attribute", STRICT, EXPORT),
    )

    def visit_Call(self, node: cst.Call) -> None:
        name = torch_name(self.ctx, node.func)
        if name is None or name in TORCH_DTYPES or name in OTHER_RULES:
            return
        op = TORCH_FUNCTIONS.get(name)
        message = f"`{self.ctx.code(node.func)}` in {self.ctx.where()} is a torch call: MindSpore cannot run it"
        if op is None:
            self.report(node, f"{message} (no `ops` equivalent in graphmend's table: port it by hand)")
            return
        args, problem = _mapped_arguments(node, op, self.values)
        if problem:
            self.report(node, f"{message}; use `ops.{op.target}` ({problem}: rewrite by hand)")
            return
        func, needed = self.ctx.bindings.reference(f"mindspore.ops.{op.target}")
        self.report(
            node,
            f"{message}; use `ops.{op.target}`",
            node.with_changes(func=func, args=args),
            "safe",
            (needed,),
        )

    def visit_Attribute(self, node: cst.Attribute) -> None:
        name = torch_name(self.ctx, node)
        if name is None:
            return
        parent = self.ctx.parents.get(node)
        if isinstance(parent, cst.Attribute) and parent.value is node:
            return  # not the whole dotted name
        if name in TORCH_DTYPES:
            target = f"mindspore.{TORCH_DTYPES[name]}"
            dtype, needed = self.ctx.bindings.reference(target)
            message = f"`{self.ctx.code(node)}` in {self.ctx.where()} is a torch dtype; use `{target}`"
            self.report(node, message, dtype, "safe", (needed,))
        elif not (isinstance(parent, cst.Call) and parent.func is node):
            self.report(
                node,
                f"`{self.ctx.code(node)}` in {self.ctx.where()} is a torch object: MindSpore cannot use it",
            )


def _mapped_arguments(node: cst.Call, op: TorchOp, values: Values) -> tuple[list[cst.Arg], str]:
    """The arguments for the ops function, or why they cannot be mapped."""
    if any(a.star for a in node.args):
        return [], "star arguments"
    positional = [a for a in node.args if a.keyword is None]
    keywords = [a for a in node.args if a.keyword is not None]
    if op.shape:
        size, problem = _size(positional, values)
        if problem:
            return [], problem
        positional = [size] if size is not None else []
    mapped: list[cst.Arg] = []
    for i, a in enumerate(positional):
        if i < op.carry:
            mapped.append(a)
        elif i < len(op.params):
            mapped.append(_keyword(a, op.keywords.get(op.params[i], op.params[i])))
        else:
            return [], f"argument {i + 1} has no place in `ops.{op.target}`"
    for a in keywords:
        mapped.append(_keyword(a, op.keywords.get(a.keyword.value, a.keyword.value)))  # type: ignore[union-attr]
    given = [a.keyword.value for a in mapped if a.keyword is not None]
    unknown = [k for k in given if k not in op.parameters]
    if unknown:
        return [], f"`ops.{op.target}` takes no `{unknown[0]}=`"
    for key, value in op.defaults.items():  # where torch's default is not MindSpore's
        if key not in given:
            mapped.append(arg(cst.parse_expression(value), key))
    return _spaced(mapped), ""


def _size(positional: list[cst.Arg], values: Values) -> tuple[cst.Arg | None, str]:
    """`torch.zeros(2, 3)` / `((2, 3))` / `(x.shape)` → one size argument for ops."""
    if not positional:
        return None, "no size given"
    if len(positional) > 1:
        return cst.Arg(as_tuple([a.value for a in positional])), ""
    only = positional[0].value
    if values.is_shape_like(only):
        return positional[0], ""
    if values.is_int(only):
        return cst.Arg(as_tuple([only])), ""
    return None, "the size may be one int or a sequence"


def _keyword(argument: cst.Arg, name: str) -> cst.Arg:
    return argument.with_changes(
        keyword=cst.Name(name), equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace(""))
    )


def _spaced(args: list[cst.Arg]) -> list[cst.Arg]:
    """Commas between the arguments; the original last argument keeps its own (a trailing comma)."""
    comma = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
    fixed = [a if a.comma is not cst.MaybeSentinel.DEFAULT else a.with_changes(comma=comma) for a in args[:-1]]
    return [*fixed, args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)] if args else []
