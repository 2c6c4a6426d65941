"""How often the documented limits that have no rule appear in real model code: an `ast` scan of the
`construct` methods (row 33: whole classes) of a source tree (default: bench/realcells/src, the seven
wheels `make realcells` fetches). Nothing is imported or run.

    .venv/bin/python bench/limits/prevalence.py [TREE]

Prints, per row of bench/limits/cases.py, how many `construct` methods hold the construct, and up to
three places. The counts are what the table's "no rule" rows cite.
"""

from __future__ import annotations

import ast
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT = HERE.parent / "realcells" / "src"


def _calls(names: set[str], on_attribute: bool) -> Callable[[ast.AST, set[str]], bool]:
    def found(node: ast.AST, _: set[str]) -> bool:
        if not isinstance(node, ast.Call):
            return False
        func = node.func
        if on_attribute:
            return isinstance(func, ast.Attribute) and func.attr in names
        return isinstance(func, ast.Name) and func.id in names

    return found


def _returns_dtype(node: ast.AST, _: set[str]) -> bool:
    if not isinstance(node, ast.Return) or node.value is None:
        return False
    values = node.value.elts if isinstance(node.value, ast.Tuple) else [node.value]
    return any(isinstance(v, ast.Attribute) and v.attr == "dtype" for v in values)


def _global_parameter(node: ast.AST, module_parameters: set[str]) -> bool:
    return isinstance(node, ast.Name) and node.id in module_parameters


def _shape_key(key: ast.AST | None) -> bool:
    if isinstance(key, ast.Subscript):
        key = key.value
    return isinstance(key, ast.Attribute) and key.attr == "shape"


def _dict_keyed_by_shape(node: ast.AST, _: set[str]) -> bool:
    return isinstance(node, ast.Dict) and any(_shape_key(k) for k in node.keys)


PATTERNS: dict[str, tuple[str, Callable[[ast.AST, set[str]], bool]]] = {
    "7": ("`iter(...)` / `next(...)`", _calls({"iter", "next"}, on_attribute=False)),
    "16": ("a dict displayed with a shape value as a key", _dict_keyed_by_shape),
    "29": ("`add_prim_attr` / `del_prim_attr` / `set_train` / `set_grad` calls", _calls(
        {"add_prim_attr", "del_prim_attr", "set_train", "set_grad"}, on_attribute=True)),
    "41": ("`return ..., x.dtype`", _returns_dtype),
    "43": ("a module-level `Parameter(...)` read", _global_parameter),
}  # fmt: skip


def _module_parameters(tree: ast.Module) -> set[str]:
    names = set()
    for statement in tree.body:
        if isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Call):
            func = statement.value.func
            if getattr(func, "id", None) == "Parameter" or getattr(func, "attr", None) == "Parameter":
                names |= {t.id for t in statement.targets if isinstance(t, ast.Name)}
    return names


def _duplicate_parameter_names(tree: ast.Module) -> Iterator[tuple[str, int, str]]:
    """Row 33: classes that give the same literal `name=` to Parameters held by two different attributes
    (`self.a = Parameter(..., name="w")`, `self.b = Parameter(..., name="w")`): (class, line, name). The
    same attribute bound in two branches (`if moe: self.weight = Parameter(..., name="weight") else: …`)
    is one Parameter."""
    for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
        holders: dict[str, str] = {}
        for assign in (n for n in ast.walk(cls) if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call)):
            func, call = assign.value.func, assign.value
            if getattr(func, "id", None) != "Parameter" and getattr(func, "attr", None) != "Parameter":
                continue
            holder = ast.unparse(assign.targets[0])
            for keyword in call.keywords:
                if keyword.arg == "name" and isinstance(keyword.value, ast.Constant):
                    name = str(keyword.value.value)
                    if holders.setdefault(name, holder) != holder:
                        yield cls.name, call.lineno, name


def _constructs(tree: ast.Module) -> Iterator[ast.FunctionDef]:
    for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
        yield from (f for f in cls.body if isinstance(f, ast.FunctionDef) and f.name == "construct")


def scan(tree: Path) -> tuple[int, int, dict[str, list[str]], Counter]:
    """Files read, construct methods, the places per row, and what row 7's `iter`/`next` calls iterate.
    Row 33 (duplicate Parameter names) is looked for in whole classes, not in construct."""
    files = constructs = 0
    found: dict[str, list[str]] = {row: [] for row in (*PATTERNS, "33")}
    iterated: Counter = Counter()
    for path in sorted(tree.rglob("*.py")):
        try:
            module = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
        except SyntaxError:
            continue
        files += 1
        parameters = _module_parameters(module)
        found["33"] += [f"{path.relative_to(tree)}:{line} ({cls}: '{name}')"
                        for cls, line, name in _duplicate_parameter_names(module)]  # fmt: skip
        for construct in _constructs(module):
            constructs += 1
            for row, (_, matches) in PATTERNS.items():
                lines = [n.lineno for n in ast.walk(construct) if matches(n, parameters)]
                if lines:
                    found[row].append(f"{path.relative_to(tree)}:{lines[0]}")
            iterated.update(ast.unparse(n.args[0]) for n in ast.walk(construct)
                            if PATTERNS["7"][1](n, parameters) and n.args)  # fmt: skip
    return files, constructs, found, iterated


def main() -> None:
    tree = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    if not tree.is_dir():
        raise SystemExit(f"{tree}: no such folder (bench/realcells/fetch.py fetches the default one)")
    files, constructs, found, iterated = scan(tree)
    print(f"{tree}: {files} files, {constructs} construct methods")
    for row, places in found.items():
        if row == "33":
            print(f"row 33 two Parameters with the same literal `name=` in one class: {len(places)} place(s)")
        else:
            print(f"row {row:>2} {PATTERNS[row][0]}: in {len(places)} construct method(s)")
        for place in places[:3]:
            print(f"         {place}")
        if row == "7":
            print("         what they iterate: " + ", ".join(f"{n}x {what}" for what, n in iterated.most_common()))


if __name__ == "__main__":
    main()
