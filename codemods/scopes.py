"""Which code MindSpore compiles as a graph.

- `construct` of every class that derives from `mindspore.nn.Cell`: through imports (`nn.Cell`, `Cell`,
  `mindspore.nn.Dense`, any `mindspore.nn.*` class), through classes of the same file
  (`class Base(nn.Cell)` → `class Net(Base)`), and, for classes whose base is imported from another
  module of the user's package, when the class itself defines `construct` in a file that imports MindSpore
  (a MindSpore-only convention: graphmend cannot see the other file);
- methods of such a class (or of its same-file bases) called as `self.helper(...)` from graph code (or
  through the class: `type(self).helper(...)`, `self.__class__.helper(...)`, `Net.helper(...)`);
- functions and methods decorated with `jit` / `ms.jit` / `mindspore.jit` (bare or called, any import spelling);
- module-level functions of the same file called by name from graph code.

Functions nested inside graph code are part of it and are not listed separately.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

import libcst as cst

from graphmend.names import imported_names
from graphmend.tree import children, holding, statements


@dataclass(frozen=True)
class GraphFunction:
    """A function MindSpore compiles, and why graphmend thinks so."""

    node: cst.FunctionDef
    cell: cst.ClassDef | None  # the Cell class it belongs to, if any
    reason: str  # "" for construct, "called from `Net.construct`", "@jit"

    @property
    def label(self) -> str:
        return f"{self.cell.name.value}.{self.node.name.value}" if self.cell else self.node.name.value

    def describe(self) -> str:
        """`Net.construct`, or `Net.helper` (called from `Net.construct`), for messages."""
        return f"`{self.label}`" + (f" ({self.reason})" if self.reason else "")


@dataclass(frozen=True)
class GraphCode:
    functions: list[GraphFunction]  # outermost only, in source order
    cells: list[cst.ClassDef]  # every class taken for an `nn.Cell`, in source order
    # every call of the file, with the function, lambda or class body it is directly in (None: the module's)
    calls: list[tuple[cst.FunctionDef | cst.Lambda | cst.ClassDef | None, cst.Call]]


def find_graph_code(module: cst.Module, qualified: Mapping[cst.CSTNode, object]) -> GraphCode:
    """Every graph function of `module`, and the Cell classes (one pass over the file)."""
    index = _Index(module)
    cells = _cell_classes(index.classes, qualified, index.imports_mindspore)
    found: dict[int, GraphFunction] = {}
    for cls in cells:
        for method in _methods(cls):
            if method.name.value == "construct":
                found[id(method)] = GraphFunction(method, cls, "")
            elif method.name.value == "bprop":  # a custom backward pass, compiled with the graph's gradient
                found[id(method)] = GraphFunction(method, cls, "the Cell's backward pass")
    for fn in index.functions:
        if any(_is_jit(d, qualified) for d in fn.decorators) and id(fn) not in found:
            found[id(fn)] = GraphFunction(fn, _owner(fn, cells), "@jit")
    _add_callees(found, module, cells, index)
    # functions nested in graph code are visited with it
    outermost = [f for f in found.values() if not any(id(outer) in found for outer in index.enclosing[id(f.node)])]
    return GraphCode(outermost, cells, index.all_calls)


class _Index:
    """One pass over the file: classes, functions in source order, what encloses each, the calls in each."""

    def __init__(self, module: cst.Module) -> None:
        self.classes: list[cst.ClassDef] = []
        self.functions: list[cst.FunctionDef] = []
        self.enclosing: dict[int, tuple[cst.FunctionDef, ...]] = {}
        self.calls: dict[int, list[cst.Call]] = {}
        self.imports_mindspore = False
        self.all_calls: list[tuple[cst.FunctionDef | cst.Lambda | cst.ClassDef | None, cst.Call]] = []
        # depth first, children in field order (a body before a def's decorators), with the enclosing functions
        # and the innermost function, lambda or class (a subtree that cannot hold any of the five kinds recorded
        # is not entered: most of the file)
        wanted = holding(frozenset({"Call", "FunctionDef", "ClassDef", "Import", "ImportFrom"}))
        todo: list[tuple[cst.CSTNode, tuple[cst.FunctionDef, ...], cst.CSTNode | None]] = [(module, (), None)]
        while todo:
            node, stack, inner = todo.pop()
            self._record(node, stack, inner)
            kind = type(node)
            if kind is cst.FunctionDef:
                stack = (*stack, node)
            if kind is cst.FunctionDef or kind is cst.Lambda or kind is cst.ClassDef:
                inner = node
            todo.extend((child, stack, inner) for child in reversed(children(node)) if type(child) in wanted)

    def _record(self, node: cst.CSTNode, stack: tuple[cst.FunctionDef, ...], inner: cst.CSTNode | None) -> None:
        kind = type(node)  # libcst's node classes have no subclasses; `isinstance` on them (ABCs) is slow
        if kind is cst.Call:
            self.all_calls.append((inner, node))  # type: ignore[arg-type]
            for function in stack:
                self.calls[id(function)].append(node)
        elif kind is cst.FunctionDef:
            self.functions.append(node)
            self.enclosing[id(node)] = stack
            self.calls[id(node)] = []
        elif kind is cst.ClassDef:
            self.classes.append(node)
        elif kind is cst.Import:
            self.imports_mindspore |= any(_is_mindspore(alias.name) for alias in node.names)
        elif kind is cst.ImportFrom:
            self.imports_mindspore |= node.module is not None and _is_mindspore(node.module)


def _is_mindspore(name: cst.Attribute | cst.Name) -> bool:
    while isinstance(name, cst.Attribute):
        name = name.value  # type: ignore[assignment]
    return isinstance(name, cst.Name) and name.value == "mindspore"


def _cell_classes(
    classes: list[cst.ClassDef], qualified: Mapping[cst.CSTNode, object], file_imports_mindspore: bool
) -> list[cst.ClassDef]:
    cells: set[str] = set()
    foreign: set[str] = set()  # derive from a class imported from the user's own package
    changed = True
    while changed:  # same-file bases may be declared after their subclasses
        changed = False
        for cls in classes:
            name = cls.name.value
            kind = _kind(cls, qualified, cells, foreign)
            if kind == "foreign" and file_imports_mindspore and _defines(cls, "construct"):
                kind = "cell"
            target = cells if kind == "cell" else foreign if kind == "foreign" else None
            if target is not None and name not in target:
                target.add(name)
                changed = True
    return [cls for cls in classes if cls.name.value in cells]


def _kind(cls: cst.ClassDef, qualified: Mapping[cst.CSTNode, object], cells: set[str], foreign: set[str]) -> str | None:
    kind = None
    for base in (arg.value for arg in cls.bases if arg.keyword is None):
        names = imported_names(qualified, base)
        local = base.value if isinstance(base, cst.Name) else None
        if any(n.startswith("mindspore.nn.") for n in names) or local in cells:
            return "cell"
        if local in foreign or (names and not any(n.startswith("mindspore.") for n in names)):
            kind = "foreign"
    return kind


def _is_jit(decorator: cst.Decorator, qualified: Mapping[cst.CSTNode, object]) -> bool:
    target = decorator.decorator
    if isinstance(target, cst.Call):
        target = target.func
    return "mindspore.jit" in imported_names(qualified, target)


def _add_callees(found: dict[int, GraphFunction], module: cst.Module, cells: list[cst.ClassDef], index: _Index) -> None:
    """Close `found` over `self.helper(...)` calls and calls of same-file module-level functions."""
    module_functions = {s.name.value: s for s in module.body if isinstance(s, cst.FunctionDef)}
    cells_by_name = {cls.name.value: cls for cls in cells}
    queue = list(found.values())
    while queue:
        caller = queue.pop()
        methods = _methods_with_bases(caller.cell, cells_by_name) if caller.cell else {}
        for call in index.calls[id(caller.node)]:
            callee, owner = _resolve_call(call, methods, module_functions, cells_by_name)
            if callee is not None and id(callee) not in found:
                entry = GraphFunction(callee, owner, f"called from `{caller.label}`")
                found[id(callee)] = entry
                queue.append(entry)


def _resolve_call(
    call: cst.Call,
    methods: dict[str, tuple[cst.FunctionDef, cst.ClassDef]],
    module_functions: dict[str, cst.FunctionDef],
    cells_by_name: dict[str, cst.ClassDef],
) -> tuple[cst.FunctionDef | None, cst.ClassDef | None]:
    """The same-file function or Cell method a graph call runs: `f(...)`, `self.m(...)`, and through the
    class, `type(self).m(...)`, `self.__class__.m(...)` or `Net.m(...)` (a Cell class of this file)."""
    func = call.func
    if isinstance(func, cst.Name) and func.value in module_functions:
        return module_functions[func.value], None
    if not isinstance(func, cst.Attribute) or func.attr.value == "construct":
        return None, None
    receiver = func.value
    if _is_self(receiver) or _is_self_class(receiver):
        return methods.get(func.attr.value, (None, None))
    if isinstance(receiver, cst.Name) and receiver.value in cells_by_name:
        return _methods_with_bases(cells_by_name[receiver.value], cells_by_name).get(func.attr.value, (None, None))
    return None, None


def _is_self(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Name) and node.value == "self"


def _is_self_class(node: cst.BaseExpression) -> bool:
    """`type(self)` or `self.__class__`."""
    if isinstance(node, cst.Attribute):
        return _is_self(node.value) and node.attr.value == "__class__"
    return (
        isinstance(node, cst.Call)
        and isinstance(node.func, cst.Name)
        and node.func.value == "type"
        and len(node.args) == 1
        and _is_self(node.args[0].value)
    )


def _methods_with_bases(
    cls: cst.ClassDef, cells_by_name: dict[str, cst.ClassDef]
) -> dict[str, tuple[cst.FunctionDef, cst.ClassDef]]:
    """Methods visible as `self.name` in `cls`: its own, then those of its same-file Cell bases."""
    methods: dict[str, tuple[cst.FunctionDef, cst.ClassDef]] = {}
    seen: set[str] = set()
    todo = [cls]
    while todo:
        current = todo.pop(0)
        if current.name.value in seen:
            continue
        seen.add(current.name.value)
        for method in _methods(current):
            methods.setdefault(method.name.value, (method, current))
        for arg in current.bases:
            if isinstance(arg.value, cst.Name) and arg.value.value in cells_by_name:
                todo.append(cells_by_name[arg.value.value])
    return methods


def _owner(fn: cst.FunctionDef, cells: list[cst.ClassDef]) -> cst.ClassDef | None:
    for cls in cells:
        if any(method is fn for method in _methods(cls)):
            return cls
    return None


def _methods(cls: cst.ClassDef) -> Iterator[cst.FunctionDef]:
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    return (s for s in body if isinstance(s, cst.FunctionDef))


def _defines(cls: cst.ClassDef, name: str) -> bool:
    return any(method.name.value == name for method in _methods(cls))


# What `__init__` and the other methods of a Cell store on `self`.

UNKNOWN = cst.Ellipsis()  # the value of an attribute set by unpacking a call: `self.a, self.b = f()`


@dataclass(frozen=True)
class SelfAssignment:
    method: str  # the method of the class it is in
    value: cst.BaseExpression | cst.AugAssign  # the value stored; UNKNOWN; the statement of `self.a += v`


def self_assignments(cls: cst.ClassDef) -> dict[str, list[SelfAssignment]]:
    """`self.<attr> = value` (also annotated, unpacked, augmented) in every method of `cls`, by attribute.

    Nested classes are another `self`: not read.
    """
    found: dict[str, list[SelfAssignment]] = {}

    def record(method: str, target: cst.BaseExpression, value: cst.BaseExpression | cst.AugAssign) -> None:
        if is_self_attribute(target):
            found.setdefault(target.attr.value, []).append(SelfAssignment(method, value))  # type: ignore[attr-defined]
        elif isinstance(target, (cst.Tuple, cst.List)) and not isinstance(value, cst.AugAssign):
            values = value.elements if isinstance(value, (cst.Tuple, cst.List)) else ()
            paired = len(values) == len(target.elements) and not any(
                isinstance(e, cst.StarredElement) for e in (*values, *target.elements)
            )
            for i, element in enumerate(target.elements):
                record(method, element.value, values[i].value if paired else UNKNOWN)

    for method in _methods(cls):
        for node in statements(method.body, into_classes=False):  # assignments are statements: no expression walked
            kind = type(node)  # not `isinstance`: see _Index._record
            if kind is cst.Assign:
                for target in node.targets:
                    record(method.name.value, target.target, node.value)
            elif kind is cst.AnnAssign and node.value is not None:
                record(method.name.value, node.target, node.value)
            elif kind is cst.AugAssign:
                record(method.name.value, node.target, node)
    return found


def is_self_attribute(node: cst.BaseExpression) -> bool:
    """`self.<name>`."""
    return isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and node.value.value == "self"
