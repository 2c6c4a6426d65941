"""Derived facts are derived: each rule's FIX label, the README rules table and docs/evidence.md are
checked against what the rules are and do, never kept as a second copy by hand.

GRAPHMEND_UPDATE_DOCS=1 rewrites the README table from `graphmend rules` (review it with `git diff`);
`make evidence` rewrites docs/evidence.md.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from graphmend import RULES, engine, select_rules
from graphmend.evidence import CELLS

REPO = Path(__file__).resolve().parents[1]
GOLDEN = REPO / "golden"
README = REPO / "README.md"
EVIDENCE = REPO / "docs" / "evidence.md"
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


def test_every_rule_has_a_hostile_cell_that_exists() -> None:
    assert set(CELLS) == set(RULES), "codemods/evidence.py CELLS and the rules differ"
    for code, cell in CELLS.items():
        if cell is None:
            continue
        source = (REPO / cell.path).read_text(encoding="utf-8")
        assert f"class {cell.name}(" in source, f"{code}: {cell.path} defines no {cell.name}"
        fixed = engine.check(source, cell.path, select_rules([code]))
        assert any(f.code == code for f in fixed), f"{code}: its hostile Cell has no {code} finding"


def test_evidence_has_one_row_per_rule() -> None:
    rows = re.findall(r"^\| (GM\d{3}) ", EVIDENCE.read_text(encoding="utf-8"), re.MULTILINE)
    assert sorted(rows) == sorted(RULES), "docs/evidence.md is out of date: run `make evidence`"
