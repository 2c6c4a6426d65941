from __future__ import annotations

import libcst as cst
from libcst.helpers import parse_template_expression

from graphmend.messages import explains
from graphmend.rule import Rule
from graphmend.scopes import is_self_attribute
from graphmend.targets import DYNAMIC, EXPORT, GRAPH, STRICT, breaks
from graphmend.tree import find

# Calls that register child Cells by hand: a class that makes them may alias its list elsewhere
_REGISTERS = ("insert_child_to_cell", "__setattr__", "setattr")


class PythonListOfCells(Rule):
    """A Python list of Cells set in a Cell's `__init__` → `nn.CellList(list)`.

    What it does:
        Finds, in the `__init__` of an `nn.Cell` class, an attribute set to a Python list literal or list
        comprehension whose every element constructs a Cell (`nn.*`/`mint.nn.*` classes, or Cell classes
        of the same file), and wraps it in `nn.CellList(...)`.

    Why it breaks graph mode:
        A Python list is not registered as a child of the Cell: its Cells' Parameters keep their bare
        names (`weight`, `bias`), so two Dense layers collide and GRAPH_MODE refuses to compile ("its name
        'weight' already exists. Please set a unique name for the parameter"), in every configuration.
        PyNative runs it, and the layers are also missing from `trainable_params()` and checkpoints.
        `nn.CellList` registers them as `layers.0.weight`, ...

    Example:
        self.layers = [nn.Dense(4, 4) for _ in range(3)]
        # becomes
        self.layers = nn.CellList([nn.Dense(4, 4) for _ in range(3)])

    Fix safety:
        Safe: the same Cells compute the same numbers; indexing, iteration, `len`, `append` and slicing
        work on a CellList too. Parameters gain the attribute's prefix (`layers.0.weight`), which is what
        a checkpoint of a working model has. Lists whose elements are not all Cell constructions, lists
        the class also registers by hand (`insert_child_to_cell`, `setattr`) or wraps later itself
        (`self.blocks = nn.CellList(self.blocks)`), and lists combined with `+` are left alone.
    """

    CODE = "GM203"
    NAME = "python-list-of-cells"
    BREAKS = breaks(GRAPH, STRICT, DYNAMIC, EXPORT)
    EXPLAINS = (
        explains(
            r"The parameter @\S+ , its name '[^']+' already exists\. Please set a unique name for the "
            r"parameter",
            GRAPH,
            STRICT,
            DYNAMIC,
            EXPORT,
        ),
    )
    VISITS = "cells"

    @classmethod
    def may_find(cls, facts) -> bool:
        return facts.self_lists

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._cells = {cls.name.value: cls for cls in ctx.cell_classes}
        self._classes: list[cst.ClassDef] = []

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._classes.append(node)

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self._classes.pop()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        cls = self._classes[-1] if self._classes else None
        if node.name.value != "__init__" or cls is None or cls.name.value not in self._cells:
            return
        if not _is_method(cls, node):
            return
        for assign in find(node.body, cst.Assign):
            self._check(cls, assign)  # type: ignore[arg-type]

    def _check(self, cls: cst.ClassDef, assign: cst.Assign) -> None:
        if len(assign.targets) != 1 or not is_self_attribute(assign.targets[0].target):
            return
        value = assign.value
        elements = _elements(value)
        if not elements or not all(self._constructs_cell(e) for e in elements):
            return
        attr = assign.targets[0].target.attr.value  # type: ignore[attr-defined]
        if _used_as_plain_list(cls, attr):
            return
        func, needed = self.ctx.bindings.reference("mindspore.nn.CellList")
        message = (
            f"`self.{attr}` in `{cls.name.value}.__init__` is a Python list of Cells: their Parameters are not "
            "registered, so names collide and GRAPH_MODE refuses to compile (\"its name 'weight' already "
            'exists"); use `nn.CellList`'
        )
        self.report(
            value, message, parse_template_expression("{func}({value})", func=func, value=value), "safe", (needed,)
        )

    def _constructs_cell(self, node: cst.BaseExpression) -> bool:
        if not isinstance(node, cst.Call):
            return False
        func = node.func
        if isinstance(func, cst.Name) and func.value in self._cells:
            return True
        for name in self.ctx.names(func):
            module, _, short = name.rpartition(".")
            if module in ("mindspore.nn", "mindspore.mint.nn") and short[:1].isupper():
                return True
        return False


def _elements(value: cst.BaseExpression) -> list[cst.BaseExpression]:
    if isinstance(value, cst.ListComp):
        return [value.elt]
    if isinstance(value, cst.List) and all(isinstance(e, cst.Element) for e in value.elements):
        return [e.value for e in value.elements]
    return []


def _used_as_plain_list(cls: cst.ClassDef, attr: str) -> bool:
    """The class registers Cells by hand (the list may alias them), sets the attribute again, or `+`s it."""
    if any(_callee_name(call.func) in _REGISTERS for call in find(cls, cst.Call)):
        return True

    def self_attr(node: cst.BaseExpression) -> bool:
        return is_self_attribute(node) and node.attr.value == attr  # type: ignore[attr-defined]

    if sum(self_attr(t.target) for t in find(cls, cst.AssignTarget)) > 1:
        return True  # set again later, e.g. `self.blocks = nn.CellList(self.blocks)` (mindcv's MobileViT)
    return any(self_attr(op.left) or self_attr(op.right) for op in find(cls, cst.BinaryOperation))


def _callee_name(func: cst.BaseExpression) -> str | None:
    """`f` of `f(...)` and `obj.f(...)`."""
    if isinstance(func, cst.Attribute):
        return func.attr.value
    return func.value if isinstance(func, cst.Name) else None


def _is_method(cls: cst.ClassDef, fn: cst.FunctionDef) -> bool:
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    return any(statement is fn for statement in body)
