"""What a syntactic pre-filter could keep from libcst (issue 18): a measurement, not a benchmark.

Issue 18 asks for a per-function pre-filter: CPython `ast` and per-rule triggers decide which graph code can
have a finding, and only that reaches libcst. GM401, GM402 and GM612 look at every `if`, loop and
comprehension of graph code, so the cheapest trigger for them is syntactic: "the Cell has one". This counts,
on the corpus of `make bench` (bench/corpus.py), the Cell classes (a class with a `construct`) whose methods
other than `__init__` hold an `if`, `while`, `for`, conditional expression or comprehension, and their lines:
what such a trigger would send to libcst for those three rules alone.

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


def main() -> None:
    files = cells = flowing = cell_lines = flowing_lines = 0
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
    print(f"{files} files with graph words; {cells} Cell classes, {cell_lines} lines")
    print(
        f"with an if, loop or comprehension outside __init__: {flowing} classes ({flowing / cells:.0%}), "
        f"{flowing_lines} lines ({flowing_lines / cell_lines:.0%})"
    )


if __name__ == "__main__":
    main()
