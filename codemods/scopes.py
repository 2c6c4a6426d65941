"""Which code MindSpore compiles as a graph.

- `construct` of every class that derives from `mindspore.nn.Cell`: through imports (`nn.Cell`, `Cell`,
  `mindspore.nn.Dense`, any `mindspore.nn.*` class), through classes of the same file
  (`class Base(nn.Cell)` → `class Net(Base)`), and, for classes whose base is imported from another
  module of the user's package, when the class itself defines `construct` in a file that imports MindSpore
  (a MindSpore-only convention: graphmend cannot see the other file);
- methods of such a class (or of its same-file bases) called as `self.helper(...)` from graph code;
- functions and methods decorated with `jit` / `ms.jit` / `mindspore.jit` (bare or called, any import spelling);
- module-level functions of the same file called by name from graph code.

Functions nested inside graph code are part of it and are not listed separately.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

import libcst as cst

from codemods.names import imported_names


@dataclass(frozen=True)
class GraphFunction:
    """A function MindSpore compiles, and why graphmend thinks so."""

    node: cst.FunctionDef
    cell: cst.ClassDef | None  # the Cell class it belongs to, if any
    reason: str  # e.g. "construct of Net", "called from Net.construct", "@jit"

    @property
    def label(self) -> str:
        return f"{self.cell.name.value}.{self.node.name.value}" if self.cell else self.node.name.value


def find_graph_functions(
    module: cst.Module, qualified: Mapping[cst.CSTNode, object]
) -> list[GraphFunction]:
    """Every graph function of `module`, outermost only, in source order."""
    classes = [node for node in _walk(module) if isinstance(node, cst.ClassDef)]
    cells = _cell_classes(classes, qualified, _imports_mindspore(module))
    found: dict[int, GraphFunction] = {}
    for cls in cells:
        for method in _methods(cls):
            if method.name.value == "construct":
                found[id(method)] = GraphFunction(method, cls, f"construct of {cls.name.value}")
    for fn in (n for n in _walk(module) if isinstance(n, cst.FunctionDef)):
        if any(_is_jit(d, qualified) for d in fn.decorators) and id(fn) not in found:
            found[id(fn)] = GraphFunction(fn, _owner(fn, cells), "@jit")
    _add_callees(found, module, cells)
    return _outermost(list(found.values()), module)


def _cell_classes(
    classes: list[cst.ClassDef], qualified: Mapping[cst.CSTNode, object], file_imports_mindspore: bool
) -> list[cst.ClassDef]:
    cells: dict[str, cst.ClassDef] = {}
    changed = True
    while changed:  # same-file bases may be declared after their subclasses
        changed = False
        for cls in classes:
            if cls.name.value not in cells and _derives_from_cell(
                cls, qualified, cells, file_imports_mindspore
            ):
                cells[cls.name.value] = cls
                changed = True
    return [cls for cls in classes if cells.get(cls.name.value) is cls]


def _derives_from_cell(
    cls: cst.ClassDef,
    qualified: Mapping[cst.CSTNode, object],
    cells: dict[str, cst.ClassDef],
    file_imports_mindspore: bool,
) -> bool:
    for base in (arg.value for arg in cls.bases if arg.keyword is None):
        names = imported_names(qualified, base)
        if any(n.startswith("mindspore.nn.") for n in names):
            return True
        if isinstance(base, cst.Name) and base.value in cells:
            return True
        # A base imported from the user's own package: a Cell if the class defines `construct`.
        from_elsewhere = bool(names) and not any(n.startswith("mindspore.") for n in names)
        if from_elsewhere and file_imports_mindspore and _defines(cls, "construct"):
            return True
    return False


def _imports_mindspore(module: cst.Module) -> bool:
    for node in _walk(module):
        if isinstance(node, cst.ImportFrom) and node.module is not None:
            root = cst.Module([]).code_for_node(node.module)
            if root == "mindspore" or root.startswith("mindspore."):
                return True
        if isinstance(node, cst.Import):
            for alias in node.names:
                name = cst.Module([]).code_for_node(alias.name)
                if name == "mindspore" or name.startswith("mindspore."):
                    return True
    return False


def _is_jit(decorator: cst.Decorator, qualified: Mapping[cst.CSTNode, object]) -> bool:
    target = decorator.decorator
    if isinstance(target, cst.Call):
        target = target.func
    return "mindspore.jit" in imported_names(qualified, target)


def _add_callees(found: dict[int, GraphFunction], module: cst.Module, cells: list[cst.ClassDef]) -> None:
    """Close `found` over `self.helper(...)` calls and calls of same-file module-level functions."""
    module_functions = {s.name.value: s for s in module.body if isinstance(s, cst.FunctionDef)}
    cells_by_name = {cls.name.value: cls for cls in cells}
    queue = list(found.values())
    while queue:
        caller = queue.pop()
        methods = _methods_with_bases(caller.cell, cells_by_name) if caller.cell else {}
        for call in (n for n in _walk(caller.node) if isinstance(n, cst.Call)):
            callee, owner = _resolve_call(call, methods, module_functions, caller.cell)
            if callee is not None and id(callee) not in found:
                entry = GraphFunction(callee, owner, f"called from {caller.label}")
                found[id(callee)] = entry
                queue.append(entry)


def _resolve_call(
    call: cst.Call,
    methods: dict[str, tuple[cst.FunctionDef, cst.ClassDef]],
    module_functions: dict[str, cst.FunctionDef],
    cell: cst.ClassDef | None,
) -> tuple[cst.FunctionDef | None, cst.ClassDef | None]:
    func = call.func
    if isinstance(func, cst.Name) and func.value in module_functions:
        return module_functions[func.value], None
    is_self_call = (
        isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == "self"
    )
    if is_self_call and func.attr.value in methods and func.attr.value != "construct":
        return methods[func.attr.value]
    return None, None


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


def _outermost(functions: list[GraphFunction], module: cst.Module) -> list[GraphFunction]:
    chosen = {id(f.node): f for f in functions}
    nested: set[int] = set()
    for f in functions:
        for inner in _walk(f.node):
            if inner is not f.node and id(inner) in chosen:
                nested.add(id(inner))
    order = {id(n): i for i, n in enumerate(_walk(module)) if isinstance(n, cst.FunctionDef)}
    keep = [f for f in functions if id(f.node) not in nested]
    return sorted(keep, key=lambda f: order[id(f.node)])


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


def _walk(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """Every node below `node`, in source order (pre-order)."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(current.children))
