"""Each rule's EXPLAINS against what MindSpore printed for its hostile Cell (docs/evidence.md, Failures).

`make evidence` regenerates docs/evidence.md; a MindSpore release that changes a message then fails here
instead of leaving `graphmend explain` with a pattern nothing prints any more.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from codemods import RULES
from codemods.evidence import CELLS

EVIDENCE = (Path(__file__).resolve().parent.parent / "docs" / "evidence.md").read_text(encoding="utf-8")
# `- GM201 strict before: call 1: AttributeError: In JIT strict mode, ...`: an error, not a difference
ROW = re.compile(r"^- (GM\d{3}) (\w+) before: (?:call \d+|export): ((?:\w+\.)*\w*(?:Error|Exception): .*)$", re.M)


def _errors() -> dict[str, dict[str, str]]:
    rows: dict[str, dict[str, str]] = {}
    for code, check, text in ROW.findall(EVIDENCE):
        rows.setdefault(code, {})[check] = text
    return rows


ERRORS = _errors()


def test_the_evidence_has_error_rows():
    assert len(ERRORS) >= 15, ERRORS.keys()


@pytest.mark.parametrize("code", [c for c, cell in CELLS.items() if cell is not None])
def test_every_measured_error_is_declared(code):
    """Every error the rule's Cell raised is matched by a message the rule declares for that check."""
    rule = RULES[code]
    for check, text in ERRORS.get(code, {}).items():
        declared = [m for m in rule.EXPLAINS if check in {t.value for t in m.targets}]
        assert any(m.matches(text) for m in declared), f"{code} {check}: no EXPLAINS pattern matches {text!r}"


@pytest.mark.parametrize("code", [c for c in RULES if RULES[c].EXPLAINS])
def test_every_declared_message_was_measured(code):
    """A declared message matches its own rule's row in each configuration it names: none is invented."""
    rows = ERRORS.get(code, {})
    for message in RULES[code].EXPLAINS:
        for target in message.targets:
            assert target.value in rows, f"{code}: {message.pattern!r} names {target}, where nothing failed"
            assert message.matches(rows[target.value]), f"{code} {target}: {message.pattern!r} ≠ {rows[target.value]!r}"


def test_rules_without_a_measured_error_declare_none():
    """Silent differences (GM204, GM504, ...) raise nothing: there is no message to explain."""
    quiet = [c for c, cell in CELLS.items() if cell is not None and c not in ERRORS]
    assert quiet and all(not RULES[c].EXPLAINS for c in quiet)
