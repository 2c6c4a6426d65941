"""What a syntactic pre-filter could keep from libcst (issue 18): a measurement, not a benchmark.

Issue 18 asks for a per-function pre-filter: CPython `ast` and per-rule triggers decide which graph code can
have a finding, and only that reaches libcst. GM401, GM402 and GM612 look at every `if`, loop and
comprehension of graph code, so the cheapest trigger for them is syntactic: "the Cell has one". This counts,
on the corpus of `make bench` (bench/corpus.py), the Cell classes (a class with a `construct`) whose methods
other than `__init__` hold an `if`, `while`, `for`, conditional expression or comprehension, and their lines:
what such a trigger would send to libcst for those three rules alone.

Then a semantic one, for GM401 and GM402 only: a Cell is kept when a method other than `__init__` has an
`if`/`while`/conditional test or a loop iterable that uses a parameter, or a local computed from one, as a
value (not only under `is None`, `isinstance`, `len`, `.shape`, `.ndim`, `.dtype`), or a loop over a shape or
a `len`. It ignores tensors held in attributes (`if self.weight.sum() > 0`), so a correct trigger keeps at
least this much.

    .venv/bin/python bench/prefilter_bound.py
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import corpus  # noqa: E402

from graphmend.runner import may_have_graph_code  # noqa: E402

_CONTROL = (ast.If, ast.For, ast.While, ast.IfExp, ast.comprehension)
_PYTHON_ATTRIBUTES = {"shape", "ndim", "dtype", "training"}
_PYTHON_CALLS = {"isinstance", "len", "hasattr", "getattr", "type"}


def _inputs(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """The parameters (but `self`) and every local assigned, anywhere, from something that uses one."""
    args = function.args
    found = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs) if a.arg != "self"}
    found |= {a.arg for a in (args.vararg, args.kwarg) if a is not None}
    changed = True
    while changed:
        changed = False
        for node in ast.walk(function):
            if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign | ast.For | ast.comprehension):
                value = getattr(node, "value", None) or getattr(node, "iter", None)
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if value is not None and _uses(value, found):
                    for name in (n for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)):
                        changed |= name.id not in found
                        found.add(name.id)
    return found


def _uses(expr: ast.AST, inputs: set[str]) -> bool:
    """`expr` uses one of `inputs` as a value, not only as `x is None`, `isinstance(x, ...)`, `x.shape`…"""
    if isinstance(expr, ast.Compare) and all(isinstance(op, ast.Is | ast.IsNot) for op in expr.ops):
        return False
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id in _PYTHON_CALLS:
        return False
    if isinstance(expr, ast.Attribute) and expr.attr in _PYTHON_ATTRIBUTES:
        return False
    if isinstance(expr, ast.Name):
        return expr.id in inputs
    return any(_uses(child, inputs) for child in ast.iter_child_nodes(expr))


def _sized_loop(iterable: ast.AST) -> bool:
    return any(
        isinstance(n, ast.Attribute)
        and n.attr == "shape"
        or isinstance(n, ast.Call)
        and getattr(n.func, "id", "") == "len"
        for n in ast.walk(iterable)
    )


def _semantic(methods: list[ast.FunctionDef | ast.AsyncFunctionDef]) -> bool:
    for method in methods:
        if method.name == "__init__":
            continue
        inputs = _inputs(method)
        for node in ast.walk(method):
            if isinstance(node, ast.If | ast.While | ast.IfExp) and _uses(node.test, inputs):
                return True
            if isinstance(node, ast.For | ast.comprehension) and (_uses(node.iter, inputs) or _sized_loop(node.iter)):
                return True
    return False


def main() -> None:
    files = cells = flowing = cell_lines = flowing_lines = kept = kept_lines = 0
    for path in sorted(corpus.SRC.rglob("*.py")):
        data = path.read_bytes()
        if not may_have_graph_code(data):
            continue
        try:
            tree = ast.parse(data)
        except (SyntaxError, ValueError):
            continue
        files += 1
        for node in ast.walk(tree):
            if not isinstance(node, ast.ClassDef):
                continue
            methods = [m for m in node.body if isinstance(m, ast.FunctionDef | ast.AsyncFunctionDef)]
            if not any(m.name == "construct" for m in methods):
                continue
            lines = node.end_lineno - node.lineno + 1  # type: ignore[operator]
            cells += 1
            cell_lines += lines
            if any(isinstance(x, _CONTROL) for m in methods if m.name != "__init__" for x in ast.walk(m)):
                flowing += 1
                flowing_lines += lines
            if _semantic(methods):
                kept += 1
                kept_lines += lines
    print(f"{files} files with graph words; {cells} Cell classes, {cell_lines} lines")
    print(
        f"with an if, loop or comprehension outside __init__: {flowing} classes ({flowing / cells:.0%}), "
        f"{flowing_lines} lines ({flowing_lines / cell_lines:.0%})"
    )
    print(
        f"with a test or loop on an input (GM401, GM402; at least): {kept} classes ({kept / cells:.0%}), "
        f"{kept_lines} lines ({kept_lines / cell_lines:.0%})"
    )


if __name__ == "__main__":
    main()
