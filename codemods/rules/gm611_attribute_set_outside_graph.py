from __future__ import annotations

import libcst as cst

from graphmend.rule import Rule
from graphmend.scopes import is_self_attribute, self_assignments
from graphmend.targets import DYNAMIC, GRAPH, STRICT, breaks
from graphmend.tree import find


class AttributeSetOutsideGraph(Rule):
    """A Cell method outside graph code that sets an attribute construct reads as a constant (report only).

    What it does:
        Reports, in a Cell class, an assignment `self.k = ...` in a method that graph code does not run
        (a setter such as `set_k`, `enable_cache`, `set_attention_type`) to an attribute that graph code of
        the class reads (`x * self.k`, `if self.flag:`) and never assigns itself, when nothing in the class
        stores a MindSpore object in it (a Parameter, Tensor, Cell or primitive): a Python number, bool,
        string or tuple. `__init__`, and methods `__init__` calls, run before the first call and are not
        reported.

    Why it breaks graph mode:
        GRAPH_MODE compiles such an attribute into the graph as the constant it is at the first call and
        does not compile again when it changes: measured on MindSpore 2.10 (bench/limits row 10,
        `attribute_changed_after_call`, `attribute_set_by_method`, `flag_set_by_method`; docs/limits.md),
        a Cell computing `x * self.k` with `k = 2` returns `2 * x` again after `net.set_k(3)`, in GRAPH
        (LAX), STRICT and with a dynamic batch, where PyNative returns `3 * x`; a flag that a method sets
        after the first call leaves its branch out the same way. Nothing raises. (The verifier's checks
        call a Cell with no setter in between, so they cannot show it: docs/evidence.md says so in the
        rule's note.)

    Example:
        def set_k(self, k):
            self.k = k  # GM611: construct reads self.k as a constant
        # by hand, when the value changes after the first call: hold it in a Parameter
        def __init__(self):
            ...
            self.k = Parameter(Tensor(2.0, mindspore.float32), requires_grad=False)
        def set_k(self, k):
            self.k.set_data(Tensor(k, mindspore.float32))

    Fix safety:
        No fix: whether the setter runs before the first call (harmless, the common case for set-up
        methods) or after it cannot be known from the Cell, and a Parameter changes what construct
        computes with (a tensor instead of a Python number: a loop bound or a shape cannot be one). The
        message says what to do when it runs after the first call.
    """

    CODE = "GM611"
    NAME = "attribute-set-outside-graph"
    BREAKS = breaks(
        together=(GRAPH, STRICT, DYNAMIC),
        silent=True,
        note="silent, when the method runs after the first call: graph mode keeps the value it compiled in",
    )
    FIX = "none"
    VISITS = "cells"
    # off by default: most setters run before the first call (set-up), where nothing goes wrong
    DEFAULT = False

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._cells = {id(cls) for cls in ctx.cell_classes}

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        if id(node) not in self._cells:
            return
        graph = [f for f in self.ctx.graph_functions if f.cell is node]
        if not graph:
            return
        read = {a.attr.value for f in graph for a in find(f.node, cst.Attribute) if is_self_attribute(a)}
        graph_names = {f.node.name.value for f in graph}
        methods = [s for s in node.body.body if isinstance(s, cst.FunctionDef)]
        before_first_call = {"__init__", *_called_from(methods, "__init__"), *graph_names}
        for attr, assignments in self_assignments(node).items():
            if attr not in read or any(a.method in graph_names for a in assignments):
                continue  # not read by graph code, or assigned there too (GM202's)
            if any(self._mindspore_object(a.value) for a in assignments):
                continue  # a Parameter, a Tensor, a Cell: graph code reads it as such
            for assignment in assignments:
                if assignment.method not in before_first_call:
                    self._report(node, graph, attr, assignment.method, assignment.value)

    def _report(self, cls: cst.ClassDef, graph: list, attr: str, method: str, value: cst.CSTNode) -> None:
        statement = value
        while not isinstance(statement, cst.SimpleStatementLine):  # the line `self.k = k` is on
            statement = self.ctx.parents[statement]
        readers = sorted({f.label for f in graph if _reads(f.node, attr)})
        tested = any(_reads(test, attr) for f in graph for test in _tests(f.node))
        todo = (
            "a flag decides what is compiled: set it before the first call, or build a new Cell"
            if tested
            else "call it before the first call, or keep the value in a Parameter (`requires_grad=False`) "
            "and set it with `set_data`"
        )
        self.report(
            statement,
            f"`self.{attr}` is set in `{cls.name.value}.{method}`, outside graph code, and read by "
            f"{', '.join(f'`{r}`' for r in readers)} as a constant: if `{method}` runs after the first call, "
            f"GRAPH_MODE keeps the value it compiled in and computes with the old `{attr}`, without an "
            f"error (PyNative uses the new one); {todo}",
        )

    def _mindspore_object(self, value: object) -> bool:
        """A value made by a MindSpore call (`Parameter(...)`, `Tensor(...)`, `nn.Dense(...)`, `ops.Add()`)."""
        if isinstance(value, cst.AugAssign):
            return False  # `self.step += 1`: a Python number
        if not isinstance(value, cst.BaseExpression):
            return True  # unknown (an unpacked assignment): leave it
        cells = {cls.name.value for cls in self.ctx.cell_classes}
        for call in find(value, cst.Call):  # also `nn.Dense(...) if n else Identity()`
            if isinstance(call.func, cst.Name) and call.func.value in cells:
                return True
            if any(n.startswith("mindspore") for n in self.ctx.names(call.func)):
                return True
        return False


def _called_from(methods: list[cst.FunctionDef], start: str) -> set[str]:
    """The methods `start` calls as `self.m(...)`, and those they call, and so on."""
    by_name = {m.name.value: m for m in methods}
    seen: set[str] = set()
    todo = [start]
    while todo:
        method = by_name.get(todo.pop())
        if method is None:
            continue
        for call in find(method.body, cst.Call):
            func = call.func
            if isinstance(func, cst.Attribute) and is_self_attribute(func) and func.attr.value not in seen:
                seen.add(func.attr.value)
                todo.append(func.attr.value)
    return seen


def _reads(node: cst.CSTNode, attr: str) -> bool:
    return any(is_self_attribute(a) and a.attr.value == attr for a in find(node, cst.Attribute))


def _tests(function: cst.FunctionDef) -> list[cst.BaseExpression]:
    """The conditions of the `if`s, `while`s and conditional expressions of `function`."""
    return [n.test for n in find(function, cst.If, cst.While, cst.IfExp)]
