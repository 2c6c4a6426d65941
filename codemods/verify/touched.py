"""Which Cells of a module a rewrite touches: read from both sources with `ast`, nothing imported.

A class is touched when its own code changed, when it calls a module-level function whose code changed
(by name, anywhere in its body), or when it inherits from a touched class of the same module. Classes
are the module's top-level ones that look like Cells: they define `construct`, or name `Cell` (or a
class of the module that is one) among their bases. Imports the rewrite added change no Cell by
themselves.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass


@dataclass(frozen=True)
class Touched:
    cell: str  # the class name
    line: int  # where it is defined, in the rewritten source
    how: str  # "changed", "calls helper(s) f, g", "inherits from Base"


def touched(original: str, rewritten: str) -> list[Touched]:
    """The Cells of `rewritten` that differ in behaviour from `original`, in source order."""
    try:
        before, after = ast.parse(original), ast.parse(rewritten)
    except SyntaxError:
        return []
    old, new = _definitions(before), _definitions(after)
    changed = {name for name, node in new.items() if name not in old or ast.dump(old[name]) != ast.dump(node)}
    helpers = {n for n in changed if isinstance(new[n], (ast.FunctionDef, ast.AsyncFunctionDef))}
    classes = {name: node for name, node in new.items() if isinstance(node, ast.ClassDef)}
    cells = _cells(classes)
    found: dict[str, Touched] = {}
    for name in [n for n in classes if n in cells]:
        node = classes[name]
        if name in changed:
            found[name] = Touched(name, node.lineno, "changed")
        elif used := sorted(helpers & _names(node)):
            found[name] = Touched(name, node.lineno, "calls " + ", ".join(used))
    grew = True
    while grew:  # a subclass runs its base's construct
        grew = False
        for name in [n for n in classes if n in cells and n not in found]:
            bases = [b for b in _base_names(classes[name]) if b in found]
            if bases:
                found[name] = Touched(name, classes[name].lineno, f"inherits from {bases[0]}")
                grew = True
    return sorted(found.values(), key=lambda t: t.line)


def cells_of(source: str) -> list[str]:
    """The names of the top-level classes of `source` that look like Cells."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    classes = {n: node for n, node in _definitions(tree).items() if isinstance(node, ast.ClassDef)}
    return [n for n in classes if n in _cells(classes)]


def _definitions(tree: ast.Module) -> dict[str, ast.AST]:
    kinds = (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    return {node.name: node for node in tree.body if isinstance(node, kinds)}


def _cells(classes: dict[str, ast.ClassDef]) -> set[str]:
    cells = {
        name
        for name, node in classes.items()
        if any(isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == "construct" for s in node.body)
        or any(b.endswith("Cell") for b in _base_names(node))
    }
    grew = True
    while grew:
        grew = False
        for name, node in classes.items():
            if name not in cells and any(b in cells for b in _base_names(node)):
                cells.add(name)
                grew = True
    return cells


def _base_names(node: ast.ClassDef) -> list[str]:
    names = []
    for base in node.bases:
        if isinstance(base, ast.Name):
            names.append(base.id)
        elif isinstance(base, ast.Attribute):
            names.append(base.attr)
    return names


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
