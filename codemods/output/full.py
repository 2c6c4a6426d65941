"""ruff's "full" format: each finding's line, then a frame of the source with the span underlined and the
fix it has. The default on a terminal; `concise` (one line a finding) is the default everywhere else."""

from __future__ import annotations

from collections.abc import Sequence

from graphmend.finding import Finding
from graphmend.output.formats import printable

CONTEXT = 2  # lines of source shown before and after the span


def full(findings: Sequence[Finding], source: str, unsafe: bool = False) -> str:
    """The findings of one file, whose text is `source`."""
    lines = source.splitlines()
    return "".join(_frame(f, lines, unsafe) for f in findings)


def _frame(f: Finding, lines: list[str], unsafe: bool) -> str:
    fixable = f.fix == "safe" or (f.fix == "unsafe" and unsafe)
    head = f"{printable(f.location())}: {f.code}{' [*]' if fixable else ''} {printable(f.message)}\n"
    if not 0 < f.line <= len(lines):
        return head + "\n"
    first, last = max(1, f.line - CONTEXT), min(len(lines), f.end_line + CONTEXT)
    width = len(str(last))
    gutter = " " * width + " |"
    out = [head, gutter + "\n"]
    for number in range(first, last + 1):
        text = lines[number - 1]
        out.append(f"{number:>{width}} | {printable(text)}".rstrip() + "\n")
        if f.line <= number <= f.end_line:
            start = f.column - 1 if number == f.line else len(text) - len(text.lstrip())
            end = f.end_column - 1 if number == f.end_line else len(text)
            marks = max(1, len(printable(text[start:end])))
            label = f" {f.code}" if number == f.end_line else ""
            out.append(f"{gutter} {' ' * len(printable(text[:start]))}{'^' * marks}{label}\n")
    out.append(gutter + "\n")
    fix = _fix_line(f, unsafe)
    if fix:
        out.append(f"{' ' * width} = {fix}\n")
    return "".join(out) + "\n"


def _fix_line(f: Finding, unsafe: bool) -> str:
    if f.fix is None or f.replacement is None:
        return ""
    what = "safe fix" if f.fix == "safe" else ("unsafe fix" if unsafe else "unsafe fix, with `--unsafe-fixes`")
    replacement = printable(f.replacement)
    if len(replacement) > 100:
        replacement = replacement[:97] + "..."
    return f"{what}: replace with `{replacement}`" if f.replacement else f"{what}: delete it"
