"""Derived facts are derived: each rule's FIX label and the README rules table are checked against
what the rules are and do, never kept as a second copy by hand.

GRAPHMEND_UPDATE_DOCS=1 rewrites the README table from `graphmend rules` (review it with `git diff`).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from codemods import RULES, engine, select_rules

REPO = Path(__file__).resolve().parents[1]
GOLDEN = REPO / "golden"
README = REPO / "README.md"
GRAPHMEND = Path(sys.executable).with_name("graphmend")
UPDATE = os.environ.get("GRAPHMEND_UPDATE_DOCS") == "1"


def _emitted(code: str) -> set[str]:
    """The applicabilities of `code`'s findings on its golden cases ("none": a report without a fix)."""
    found = set()
    for case in sorted((GOLDEN / code).glob("*.py")):
        if case.name.endswith(".expected.py"):
            continue
        rules = select_rules(None if code == "GM000" else [code])
        found |= {f.fix or "none" for f in engine.check(case.read_bytes(), case.name, rules) if f.code == code}
    return found


def _label(emitted: set[str]) -> str:
    fixes = sorted(emitted - {"none"})
    return "/".join(fixes) if fixes else "none"


@pytest.mark.parametrize("code", sorted(RULES))
def test_fix_label_is_what_the_rule_emits_on_its_golden_cases(code: str) -> None:
    emitted = _emitted(code)
    assert RULES[code].FIX == _label(emitted), f"{code}.FIX says {RULES[code].FIX!r}; its golden cases emit {emitted}"


def test_readme_rules_table_is_graphmend_rules() -> None:
    done = subprocess.run(
        [str(GRAPHMEND), "rules"], capture_output=True, text=True, env=dict(os.environ, COLUMNS="200"), check=True
    )
    table = "".join(line.rstrip() + "\n" for line in done.stdout.splitlines())
    text = README.read_text(encoding="utf-8")
    if UPDATE and _rules_block(text) != table:
        start, end = _rules_span(text)
        README.write_text(text[:start] + table + text[end:], encoding="utf-8")
        text = README.read_text(encoding="utf-8")
    assert _rules_block(text) == table, "README's rules table is not `graphmend rules` (GRAPHMEND_UPDATE_DOCS=1)"


def _rules_span(text: str) -> tuple[int, int]:
    start = text.index("$ graphmend rules\n") + len("$ graphmend rules\n")
    return start, text.index("```", start)


def _rules_block(text: str) -> str:
    start, end = _rules_span(text)
    return text[start:end]
