"""Where `graphmend.positions.statement_starts` (CPython's line numbers) puts each top-level statement, against
where printing the module puts it, on every file of a tree: the measurement behind LazyPositions.

    .venv/bin/python bench/statement_starts.py [DIR]      # default: the corpus of `make bench` (bench/corpus.py)

Prints how many files agree, how many it declines (no trailing newline, or syntax CPython rejects: those are
printed whole) and every file where they differ (there must be none).
"""

from __future__ import annotations

import sys
from pathlib import Path

import libcst as cst

from graphmend.positions import statement_starts

HERE = Path(__file__).resolve().parent


def printed_starts(module: cst.Module) -> list[int]:
    starts = [sum(len(module.code_for_node(line)) for line in module.header)]
    for statement in module.body:
        starts.append(starts[-1] + len(module.code_for_node(statement)))
    return starts


def main() -> int:
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE / "corpus" / "src"
    agree = declined = 0
    differ = []
    for path in sorted(root.rglob("*.py")):
        source = path.read_bytes()
        try:
            module = cst.parse_module(source)
        except Exception:  # not libcst's syntax: graphmend reports it and analyses nothing
            continue
        starts = statement_starts(module, source.decode(module.encoding))
        if starts is None:
            declined += 1
        elif starts == printed_starts(module):
            agree += 1
        else:
            differ.append(path)
    print(f"{agree} files agree, {declined} declined (printed whole), {len(differ)} differ")
    for path in differ:
        print(f"  differs: {path}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
