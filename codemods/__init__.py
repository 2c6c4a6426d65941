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
from typing import TYPE_CHECKING

from graphmend.finding import Finding
from graphmend.rules import RULES, UnknownRule, select_rules

if TYPE_CHECKING:
    from graphmend.engine import FixError, FixResult

__all__ = ["RULES", "Finding", "FixError", "FixResult", "UnknownRule", "check_source", "fix_source"]


def check_source(
    source: str, path: str = "<string>", select: Iterable[str] | None = None, ignore: Iterable[str] = ()
) -> list[Finding]:
    """The findings of the selected rules in `source`, sorted by position."""
    from graphmend import engine

    return engine.check(source, path, select_rules(select, ignore))


def fix_source(
    source: str,
    path: str = "<string>",
    unsafe: bool = False,
    select: Iterable[str] | None = None,
    ignore: Iterable[str] = (),
) -> FixResult:
    """`source` with every safe fix applied (and unsafe ones with `unsafe=True`), to a fixpoint."""
    from graphmend import engine

    return engine.fix(source, path, select_rules(select, ignore), unsafe)


def __getattr__(name: str):
    # the analysis (libcst, the rules) is imported on first use, not with the package: a run that finds
    # every file in the cache never loads it (issue 18)
    if name in ("FixError", "FixResult"):
        from graphmend import engine

        return getattr(engine, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
