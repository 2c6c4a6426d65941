from __future__ import annotations

import libcst as cst

from graphmend.messages import explains
from graphmend.rule import Rule
from graphmend.targets import DYNAMIC, EXPORT, GRAPH, STRICT, breaks

# the Cell methods that walk the Cell tree in Python (measured: trainable_params, parameters_dict, get_parameters)
_WALKERS = {
    "trainable_params", "untrainable_params", "get_parameters", "parameters_dict", "parameters_and_names",
    "cells_and_names", "parameters",  # the last is torch's name (Hugging Face ports: `next(self.parameters())`)
}  # fmt: skip


class ParametersInConstruct(Rule):
    """`self.trainable_params()`, `parameters_dict()`, `get_parameters()` and the other Cell walkers in graph code.

    What it does:
        Reports calls of the Cell methods that walk the Cell's Parameters or sub-Cells (`trainable_params`,
        `untrainable_params`, `get_parameters`, `parameters_dict`, `parameters_and_names`,
        `cells_and_names`) on `self` or on a sub-Cell of `self` in graph code, and torch's
        `self.parameters()`, which Hugging Face ports keep (`next(self.parameters()).dtype`: 4 of the 8
        construct methods with `next(...)` that bench/limits/prevalence.py finds in the seven real-Cell
        wheels; the other 4 are `get_parameters()` and `parameters_dict()`) and which an `nn.Cell` of 2.10
        does not have (unless the file's own Cell classes define it).

    Why it breaks graph mode:
        These methods are Python generators and dict builders over the Cell tree, which the graph
        compiler cannot run. Measured on MindSpore 2.10 (bench/limits, row 3): GRAPH (LAX), STRICT, a
        dynamic batch and export all fail with "the method or function
        'mindspore.nn.cell.Cell.trainable_params' is not supported in 'construct' or function with @jit
        decorator" (`parameters_dict` and `get_parameters` name `Cell.get_parameters`).

    Example:
        def construct(self, x):
            reg = sum(p.sum() for p in self.trainable_params())
        # by hand: collect them once in __init__, after the layers are built
        def __init__(self):
            ...
            self.weights = ParameterTuple(self.trainable_params())
        def construct(self, x):
            reg = sum(p.sum() for p in self.weights)

    Fix safety:
        No fix: the list must be collected in `__init__` after every layer exists, and what the code does
        with the list (its length, a sum, names) decides the container to keep it in.
    """

    CODE = "GM607"
    NAME = "parameters-in-construct"
    BREAKS = breaks(GRAPH, STRICT, DYNAMIC, EXPORT, note="the parameter walkers are not graph functions")
    EXPLAINS = (
        explains(
            r"Failed to compile in GRAPH_MODE because the method or function "
            r"'mindspore\.nn\.cell\.Cell\.(trainable_params|get_parameters|parameters_dict)\w*' is not supported",
            GRAPH,
            STRICT,
            DYNAMIC,
            EXPORT,
        ),
    )
    FIX = "none"

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if not (isinstance(func, cst.Attribute) and func.attr.value in _WALKERS and _on_self(func.value)):
            return
        if self.ctx.current is None or self.ctx.current.cell is None:
            return
        call = f"{self.ctx.code(func)}()"
        if func.attr.value == "parameters":
            if any(_defines(cls, "parameters") for cls in self.ctx.cell_classes):
                return  # the file's own `parameters` method: not torch's
            self.report(
                node,
                f"`{call}` in {self.ctx.where()} is torch's: an `nn.Cell` has no `parameters` (AttributeError even in "
                "PyNative), and MindSpore's `get_parameters()` walks the Cell tree in Python, which graph mode "
                "rejects; collect what it reads once at the end of `__init__` (e.g. `self.first_dtype = "
                "next(self.get_parameters()).dtype`) and read that",
            )
            return
        self.report(
            node,
            f'`{call}` in {self.ctx.where()} walks the Cell tree in Python: graph mode rejects it ("the method '
            f"or function 'mindspore.nn.cell.Cell.{func.attr.value}' is not supported in 'construct'\"); collect "
            f"it once at the end of `__init__` (e.g. `ParameterTuple(self.trainable_params())`) and read that",
        )


def _on_self(node: cst.BaseExpression) -> bool:
    """`self`, or a chain of attributes of it (`self.encoder.layer`)."""
    while isinstance(node, cst.Attribute):
        node = node.value
    return isinstance(node, cst.Name) and node.value == "self"


def _defines(cls: cst.ClassDef, name: str) -> bool:
    return any(isinstance(s, cst.FunctionDef) and s.name.value == name for s in cls.body.body)
