"""graphmend: rewrite MindSpore code that breaks in GRAPH_MODE into graph-native code.

The public API (the CLI is built on it):

    from graphmend import check_source, fix_source
    findings = check_source(source, path="model.py")            # list[Finding]
    result = fix_source(source, path="model.py", unsafe=False)  # FixResult(output, applied, remaining)

`select` / `ignore` take rule codes or prefixes (`["GM1"]`); `RULES` maps every code to its rule class.
Neither function imports MindSpore or runs the code it reads.
"""

from __future__ import annotations

from collections.abc import Iterable

from graphmend import engine
from graphmend.engine import FixError, FixResult
from graphmend.rule import Finding
from graphmend.rules import RULES, UnknownRule, select_rules

__all__ = ["RULES", "Finding", "FixError", "FixResult", "UnknownRule", "check_source", "fix_source"]


def check_source(
    source: str, path: str = "<string>", select: Iterable[str] | None = None, ignore: Iterable[str] = ()
) -> list[Finding]:
    """The findings of the selected rules in `source`, sorted by position."""
    return engine.check(source, path, select_rules(select, ignore))


def fix_source(
    source: str,
    path: str = "<string>",
    unsafe: bool = False,
    select: Iterable[str] | None = None,
    ignore: Iterable[str] = (),
) -> FixResult:
    """`source` with every safe fix applied (and unsafe ones with `unsafe=True`), to a fixpoint."""
    return engine.fix(source, path, select_rules(select, ignore), unsafe)
