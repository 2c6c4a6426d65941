"""Reading calls in graph code: the receiver of a method call, the dotted name of a function."""

from __future__ import annotations

import libcst as cst


def method_call(node: cst.Call, *names: str) -> cst.BaseExpression | None:
    """The receiver `x` of `x.<name>(...)` when the method is one of `names`."""
    func = node.func
    if isinstance(func, cst.Attribute) and func.attr.value in names:
        return func.value
    return None


def dotted_name(node: cst.BaseExpression) -> str | None:
    """`torch.nn.functional.relu` → "torch.nn.functional.relu"; None for anything but names and attributes
    (`np.random.rand(1).item` is a method of a result)."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        head = dotted_name(node.value)
        return f"{head}.{node.attr.value}" if head else None
    return None
