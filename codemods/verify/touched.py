"""Which Cells a rewrite touches: read from the sources with `ast`, nothing imported.

In the rewritten module (`touched`), a class is touched when its own code changed, when it calls a
module-level function whose code changed (by name, anywhere in its body), or when it inherits from a
touched class of the same module. In another module (`through_imports`), a class is touched when it
uses, by an import resolved to its module, a function the rewrite changed or a class it touched (a call,
a base class, a reference), or calls a function of its own module that does. Classes are the module's
top-level ones that look like Cells: they define `construct`, or name `Cell` (or a class of the module
that is one) among their bases. Imports the rewrite added change no Cell by themselves.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass


@dataclass(frozen=True)
class Touched:
    cell: str  # the class name
    line: int  # where it is defined, in the rewritten source
    how: str  # "changed", "calls helper(s) f, g", "inherits from Base"


def touched(original: str, rewritten: str) -> list[Touched]:
    """The Cells of `rewritten` that differ in behaviour from `original`, in source order."""
    return changes(original, rewritten)[0]


def changes(original: str, rewritten: str) -> tuple[list[Touched], set[str]]:
    """The touched Cells (as `touched`), and what another module can import that the rewrite changed:
    its changed module-level functions and its touched Cells. Both sources are parsed once."""
    try:
        before, after = ast.parse(original), ast.parse(rewritten)
    except SyntaxError:
        return [], set()
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
    cells_touched = _with_subclasses(found, classes, cells)
    return cells_touched, helpers | {t.cell for t in cells_touched}


def through_imports(source: str, package: str, changed: dict[str, set[str]]) -> list[Touched]:
    """The Cells of `source` (a module of `package`, "" at the top) that use a name `changed` in another
    module (dotted module name -> its changed names, as `changes` gives them), in source order."""
    return reach(source, package, changed)[0]


def reach(source: str, package: str, changed: dict[str, set[str]]) -> tuple[list[Touched], set[str]]:
    """`through_imports`, and the names of `source` that now run changed code: its touched Cells and its
    functions that use a changed name (a module that imports one of them is touched one hop further)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return [], set()
    bound = _imports(tree, package, changed)
    definitions = _definitions(tree)
    uses = {name: _uses(node, bound, changed) for name, node in definitions.items()}
    local = {n for n, node in definitions.items() if not isinstance(node, ast.ClassDef) and uses[n]}
    grew = True
    while grew:  # a function of this module that calls one that uses a changed name
        grew = False
        for name, node in definitions.items():
            if name not in local and not isinstance(node, ast.ClassDef) and _names(node) & local:
                uses[name] = sorted({u for f in _names(node) & local for u in uses[f]})
                local.add(name)
                grew = True
    classes = {n: node for n, node in definitions.items() if isinstance(node, ast.ClassDef)}
    inherited = {n: _uses(ast.Tuple(node.bases), bound, changed) for n, node in classes.items()}
    cells = _cells(classes, {n for n, bases in inherited.items() if bases})  # a changed base is a Cell
    found: dict[str, Touched] = {}
    for name in [n for n in classes if n in cells]:
        node = classes[name]
        used = sorted({*uses[name], *(u for f in _names(node) & local for u in uses[f])})
        if inherited[name]:
            found[name] = Touched(name, node.lineno, f"inherits from {inherited[name][0]}")
        elif used:
            found[name] = Touched(name, node.lineno, "calls " + ", ".join(used))
    cells_found = _with_subclasses(found, classes, cells)
    return cells_found, local | {t.cell for t in cells_found}


def _with_subclasses(found: dict[str, Touched], classes: dict[str, ast.ClassDef], cells: set[str]) -> list[Touched]:
    """`found` and the Cells of `classes` that inherit from one of them (a subclass runs its base's construct),
    in source order."""
    grew = True
    while grew:
        grew = False
        for name in [n for n in classes if n in cells and n not in found]:
            bases = [b for b in _base_names(classes[name]) if b in found]
            if bases:
                found[name] = Touched(name, classes[name].lineno, f"inherits from {bases[0]}")
                grew = True
    return sorted(found.values(), key=lambda t: t.line)


def _resolved(tree: ast.Module, package: str) -> Iterator[tuple[str, ast.alias, bool]]:
    """(module, alias, plain) for each name an import statement binds: a plain `import a.b` as ("a.b",
    alias, True); a from-import as its absolute module (relative ones resolved in `package`; one that
    climbs above the top-level package is left out)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from ((alias.name, alias, True) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = _absolute(node.module, node.level, package)
            if module is not None:
                yield from ((module, alias, False) for alias in node.names)


def _imports(tree: ast.Module, package: str, changed: dict[str, set[str]]) -> dict[str, tuple[str, str | None]]:
    """Local name -> (module, name in it), or (module, None) when the name is the module itself."""
    bound: dict[str, tuple[str, str | None]] = {}
    for module, alias, plain in _resolved(tree, package):
        if plain:
            head = alias.name.split(".")[0]
            bound[alias.asname or head] = (alias.name, None) if alias.asname else (head, None)
        elif alias.name == "*":
            bound.update({n: (module, n) for n in changed.get(module, ())})
        else:
            bound[alias.asname or alias.name] = (module, alias.name)
    return bound


def imported_modules(source: str, package: str) -> frozenset[str]:
    """What `source` (a module of `package`) imports, as dotted names: each module or name of one that a
    from-import names, and each plain `import a.b` as `a.b.*` (its attributes reach every module below it).
    A module must be among them (`may_import`) for `through_imports` to find anything in `source`."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return frozenset()
    found: set[str] = set()
    for module, alias, plain in _resolved(tree, package):
        if plain:
            found.add(f"{module}.*")
        else:
            found.update([module] if alias.name == "*" else [module, f"{module}.{alias.name}"])
    return frozenset(found)


def may_import(imported: frozenset[str], module: str) -> bool:
    """Whether a module whose imports are `imported` can reach `module`."""
    return module in imported or any(n.endswith(".*") and f"{module}.".startswith(n[:-1]) for n in imported)


def _absolute(module: str | None, level: int, package: str) -> str | None:
    if not level:
        return module
    parts = package.split(".") if package else []
    if level - 1 >= len(parts):  # above the top-level package: an ImportError in Python
        return None
    base = parts[: len(parts) - (level - 1)]
    return ".".join([*base, *([module] if module else [])]) or None


def _uses(node: ast.AST, bound: dict[str, tuple[str, str | None]], changed: dict[str, set[str]]) -> list[str]:
    """The changed names (as module.name) that `node` uses through `bound`."""
    found = set()
    for sub in ast.walk(node):
        chain = _chain(sub)
        if not chain or chain[0] not in bound:
            continue
        module, name = bound[chain[0]]
        dotted = [*module.split("."), *([name] if name else []), *chain[1:]]
        for cut in range(1, len(dotted)):  # module = the first `cut` parts, then one name of it
            owner, attr = ".".join(dotted[:cut]), dotted[cut]
            if attr in changed.get(owner, ()):
                found.add(f"{owner}.{attr}")
    return sorted(found)


def _chain(node: ast.AST) -> list[str] | None:
    """`a.b.c` -> ["a", "b", "c"] for a Name or an Attribute chain on one, read where it is loaded."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.insert(0, node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return [node.id, *parts]
    return None


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


def _cells(classes: dict[str, ast.ClassDef], known: set[str] = frozenset()) -> set[str]:
    cells = set(known) | {
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
