from __future__ import annotations

import libcst as cst
from libcst.metadata import BuiltinAssignment

from graphmend.builders import fresh_name
from graphmend.messages import explains
from graphmend.rule import Rule
from graphmend.scopes import is_self_attribute
from graphmend.targets import DYNAMIC, EXPORT, GRAPH, STRICT, breaks
from graphmend.tree import find

# the Cell methods that walk the Cell tree in Python (measured: trainable_params, parameters_dict, get_parameters)
_WALKERS = {
    "trainable_params", "untrainable_params", "get_parameters", "parameters_dict", "parameters_and_names",
    "cells_and_names", "parameters",  # the last is torch's name (Hugging Face ports: `next(self.parameters())`)
}  # fmt: skip
# the walkers that give the Parameters themselves: a ParameterTuple holds them for graph code
_SEQUENCES = {"trainable_params", "untrainable_params", "get_parameters", "parameters"}
# builtins whose value of the Parameters is what graph code reads (`next(...).dtype`, `len(...)`)
_WRAPPERS = {"next", "len", "list", "tuple"}


class ParametersInConstruct(Rule):
    """`self.trainable_params()`, `get_parameters()` and the other Cell walkers in graph code → computed in `__init__`.

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
            y = self.dense(x).astype(next(self.get_parameters()).dtype)
            for p in self.trainable_params():
                y = y + p.sum()
        # with --unsafe-fixes
        def __init__(self):
            ...
            self._first_parameter_dtype = next(self.get_parameters()).dtype
            self._trainable_params = mindspore.ParameterTuple(self.trainable_params())
        def construct(self, x):
            y = self.dense(x).astype(self._first_parameter_dtype)
            for p in self._trainable_params:
                y = y + p.sum()

    Fix safety:
        Unsafe: what construct reads of the Parameters — the largest expression around the call that reads
        nothing but `self`, through `next`, `len`, `list`, `tuple` and attributes (`next(...).dtype`) — is
        computed once, as the last statement of the class's own `__init__`, and construct reads that
        attribute; the Parameters themselves (`trainable_params()`, `get_parameters()`, torch's
        `parameters()`, which becomes `get_parameters()`) are kept in a `ParameterTuple`, the same Parameter
        objects. It differs from the original when the Parameters change after `__init__`: a Parameter
        created later is not in the tuple, and a dtype changed after building (`from_pretrained(
        mindspore_dtype=...)`, `to_float`) is not seen. Measured (tests/verify_rules/limits/
        gm607_parameters_in_construct.py, `make evidence`): the original fails all four checks, the fix
        passes GRAPH, STRICT, a dynamic batch and export with PyNative's numbers. No fix, only the report:
        `parameters_dict()`, `parameters_and_names()`, `cells_and_names()` used as they are (a dict or name
        pairs need their own container), a class without an `__init__` of its own, an `__init__` that
        returns early.
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
    FIX = "unsafe"

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if not (isinstance(func, cst.Attribute) and func.attr.value in _WALKERS and _on_self(func.value)):
            return
        current = self.ctx.current
        if current is None or current.cell is None:
            return
        call = f"{self.ctx.code(func)}()"
        if func.attr.value == "parameters":
            if any(_defines(cls, "parameters") for cls in self.ctx.cell_classes):
                return  # the file's own `parameters` method: not torch's
            message = (
                f"`{call}` in {self.ctx.where()} is torch's: an `nn.Cell` has no `parameters` (AttributeError even "
                "in PyNative), and MindSpore's `get_parameters()` walks the Cell tree in Python, which graph mode "
                "rejects"
            )
        else:
            message = (
                f'`{call}` in {self.ctx.where()} walks the Cell tree in Python: graph mode rejects it ("the method '
                f"or function 'mindspore.nn.cell.Cell.{func.attr.value}' is not supported in 'construct'\")"
            )
        self._hoist(node, current.cell, message)

    def _hoist(self, call: cst.Call, cell: cst.ClassDef, message: str) -> None:
        """Report `call`, with the fix that computes what it is used for once, at the end of `__init__`."""
        value, wraps = self._value(call)
        walker = call.func.attr.value  # type: ignore[attr-defined]
        if value is call and walker not in _SEQUENCES:
            return self.report(call, message + "; collect what it is used for once at the end of `__init__` and "
                               "read that (no fix: a dict or name pairs need their own container)")  # fmt: skip
        if any(n.value not in ("self", "True", "False", "None") for a in call.args for n in find(a, cst.Name)):
            return self.report(call, message + "; collect it once at the end of `__init__` and read that (no fix: "
                               "its arguments are values of the graph function)")  # fmt: skip
        init = next((s for s in cell.body.body if isinstance(s, cst.FunctionDef) and s.name.value == "__init__"), None)
        if init is None or find(init.body, cst.Return):
            return self.report(call, message + f"; collect it once at the end of `{cell.name.value}.__init__` "
                               "(e.g. `ParameterTuple(self.trainable_params())`) and read that (no fix: the class "
                               "has no `__init__` of its own, or it returns early)")  # fmt: skip
        computed = value.visit(_TorchToMindSpore()) if walker == "parameters" else value
        imports: tuple = ()
        if value is call:  # the Parameters themselves: a ParameterTuple holds the same objects
            tuple_name, needed = self.ctx.bindings.reference("mindspore.ParameterTuple")
            computed, imports = cst.Call(tuple_name, [cst.Arg(computed)]), (needed,)
        attribute = _existing(init, computed) or fresh_name(_attribute_name(walker, wraps), _names(cell))
        read = cst.Attribute(cst.Name("self"), cst.Name(attribute))
        replacement = cell.visit(_Hoist(value, read, init, attribute, computed))
        self.report(
            call,
            message + f"; `{self.ctx.code(value)}` → `self.{attribute}`, computed once at the end of "
            f"`{cell.name.value}.__init__` (the Parameters as they are then: a Parameter created later, or a dtype "
            "changed after building, e.g. by `from_pretrained(mindspore_dtype=...)` or `to_float`, is not seen)",
            replacement,
            "unsafe",
            imports,
            target=cell,
        )

    def _value(self, call: cst.Call) -> tuple[cst.BaseExpression, list[str]]:
        """The largest expression around `call` that reads nothing but `self`: through `next(...)`, `len(...)`,
        `list(...)`, `tuple(...)` of it and attributes of that (`next(self.get_parameters()).dtype`)."""
        parents = self.ctx.parents
        value: cst.BaseExpression = call
        wraps: list[str] = []
        while True:
            parent = parents.get(value)
            if isinstance(parent, cst.Attribute) and parent.value is value:
                value, wraps = parent, [*wraps, parent.attr.value]
                continue
            if isinstance(parent, cst.Arg) and parent.keyword is None and not parent.star:
                outer = parents.get(parent)
                if isinstance(outer, cst.Call) and len(outer.args) == 1 and self._builtin(outer.func):
                    value, wraps = outer, [*wraps, outer.func.value]  # type: ignore[attr-defined]
                    continue
            return value, wraps

    def _builtin(self, func: cst.BaseExpression) -> bool:
        if not (isinstance(func, cst.Name) and func.value in _WRAPPERS):
            return False
        scope = self.ctx.scopes.get(func)
        return scope is not None and all(isinstance(a, BuiltinAssignment) for a in scope[func.value])


def _attribute_name(walker: str, wraps: list[str]) -> str:
    """`next(self.get_parameters()).dtype` → `_first_parameter_dtype`; `len(self.trainable_params())` →
    `_len_trainable_params`; `self.trainable_params()` → `_trainable_params`."""
    walker = "get_parameters" if walker == "parameters" else walker
    if wraps[:1] == ["next"]:
        return "_first_parameter" + "".join(f"_{w}" for w in wraps[1:])
    return "_" + "_".join([*reversed(wraps), walker]) if wraps else f"_{walker}"


def _names(cls: cst.ClassDef) -> set[str]:
    """Every attribute name the class uses on `self` or defines: a new one must be none of them."""
    taken = {n.attr.value for n in find(cls, cst.Attribute) if isinstance(n.attr, cst.Name)}
    return taken | {s.name.value for s in cls.body.body if isinstance(s, (cst.FunctionDef, cst.ClassDef))}


def _existing(init: cst.FunctionDef, computed: cst.BaseExpression) -> str | None:
    """The attribute `__init__` already sets to the same expression (a second use of it reads that one)."""
    for statement in init.body.body:
        found = _self_line(statement)
        if found is not None and found[1].deep_equals(computed):
            return found[0]
    return None


def _self_line(statement: cst.BaseStatement) -> tuple[str, cst.BaseExpression] | None:
    """(attribute, value) of a line that is one `self.<attribute> = value`, else None."""
    if not (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1):
        return None
    small = statement.body[0]
    if isinstance(small, cst.Assign) and len(small.targets) == 1 and is_self_attribute(small.targets[0].target):
        return small.targets[0].target.attr.value, small.value  # type: ignore[attr-defined]
    return None


class _Hoist(cst.CSTTransformer):
    """The class with `value` read as `read`, and `self.<attribute> = computed` at the end of `init` (unless
    it is there already)."""

    def __init__(self, value, read, init, attribute, computed) -> None:
        super().__init__()
        self.value, self.read, self.init, self.attribute, self.computed = value, read, init, attribute, computed

    def on_visit(self, node: cst.CSTNode) -> bool:
        return node is not self.value

    def on_leave(self, original_node, updated_node):  # type: ignore[override]
        if original_node is self.value:
            return self.read
        if original_node is self.init and _existing(original_node, self.computed) is None:
            body = list(updated_node.body.body)
            line = cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(self.read)], self.computed)])
            # the lines this rule added end `__init__`, by name: the same lines whichever fix lands first
            at = len(body)
            while at and (name := _hoisted(body[at - 1])) is not None and name > self.attribute:
                at -= 1
            body.insert(at, line)
            return updated_node.with_changes(body=updated_node.body.with_changes(body=body))
        return updated_node


def _hoisted(statement: cst.BaseStatement) -> str | None:
    """The attribute of a `self.<attribute> = <a Cell walker's value>` line (what `_Hoist` adds), else None."""
    found = _self_line(statement)
    if found is None:
        return None
    walks = any(
        isinstance(c.func, cst.Attribute) and c.func.attr.value in _WALKERS and _on_self(c.func.value)
        for c in find(found[1], cst.Call)
    )
    return found[0] if walks else None


class _TorchToMindSpore(cst.CSTTransformer):
    """torch's `.parameters()` → MindSpore's `.get_parameters()` (the same Parameters, in the same order)."""

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute) -> cst.Attribute:
        if updated_node.attr.value == "parameters":
            return updated_node.with_changes(attr=cst.Name("get_parameters"))
        return updated_node


def _on_self(node: cst.BaseExpression) -> bool:
    """`self`, or a chain of attributes of it (`self.encoder.layer`)."""
    while isinstance(node, cst.Attribute):
        node = node.value
    return isinstance(node, cst.Name) and node.value == "self"


def _defines(cls: cst.ClassDef, name: str) -> bool:
    return any(isinstance(s, cst.FunctionDef) and s.name.value == name for s in cls.body.body)
