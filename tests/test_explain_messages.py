"""Each rule's EXPLAINS against what MindSpore printed for its hostile Cell (docs/evidence.md, Failures),
and against what it printed for real Cells of the corpus that a graphmend fix made compile
(bench/realcells/results.json).

`make evidence` regenerates docs/evidence.md; a MindSpore release that changes a message then fails here
instead of leaving `graphmend explain` with a pattern nothing prints any more.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from graphmend import RULES
from graphmend.evidence import CELLS

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
    """A declared message matches, in each configuration it names, its own rule's row or an error of a real
    Cell that the rule's fix removed (bench/realcells/results.json: GM506's `expand(shape)` of a tuple,
    which its hostile Cell, failing first on `expand(n, -1, 8, 8)`, never reaches) and that no other rule
    applied there declares: none is invented."""
    rows = ERRORS.get(code, {})
    real: dict[str, list[str]] = {}
    for _, mode, error, applied in _removed_errors():
        others = [m for c in applied - {code} for m in RULES[c].EXPLAINS if m.matches(error)]
        if code in applied and not others:
            real.setdefault(mode, []).append(error)
    for message in RULES[code].EXPLAINS:
        for target in message.targets:
            seen = [rows[target.value]] if target.value in rows else []
            seen += real.get(target.value, [])
            assert seen, f"{code}: {message.pattern!r} names {target}, where nothing failed"
            assert any(message.matches(text) for text in seen), f"{code} {target}: {message.pattern!r} ≠ {seen!r}"


def test_rules_without_a_measured_error_declare_none():
    """Silent differences (GM204, GM504, ...) raise nothing: there is no message to explain."""
    quiet = [c for c, cell in CELLS.items() if cell is not None and c not in ERRORS]
    assert quiet and all(not RULES[c].EXPLAINS for c in quiet)


# -- on real code: the failures graphmend's fixes removed from Cells of the corpus ----------------------

REALCELLS = Path(__file__).resolve().parent.parent / "bench" / "realcells" / "results.json"
# `call 1: TypeError: ...` / `export: ValueError: ...`: an error MindSpore raised (not a numeric difference)
RAISED = re.compile(r"^(?:call \d+(?: \(B=\d+\))?|export): ((?:\w+\.)*\w*(?:Error|Exception): .*)$", re.S)


def _removed_errors() -> list[tuple[str, str, str, set[str]]]:
    """(Cell, mode, error, rules whose fixes were applied) for every error a graphmend fix removed."""
    import json

    found = []
    for cell in json.loads(REALCELLS.read_text(encoding="utf-8"))["cells"]:
        applied = set(cell["applied"]["safe"]) | set(cell["applied"]["unsafe"])
        for mode, row in cell["modes"].items():
            raised = RAISED.match(row["before"]["problem"] or "")
            if mode != "pynative" and raised and applied and "pass" in (row["safe"]["status"], row["unsafe"]["status"]):
                found.append((cell["key"], mode, raised[1], applied))
    return found


def test_errors_a_fix_removed_from_real_cells_are_declared_by_a_rule_it_applied():
    """bench/realcells/results.json (`make realcells`: Cells of seven public wheels, compiled before and
    after graphmend's fix): what MindSpore printed there, not only on hostile Cells written here."""
    removed = _removed_errors()
    assert removed, "no real-Cell error removed by a fix: the check would check nothing"
    for key, mode, error, applied in removed:
        declared = [m for code in sorted(applied) for m in RULES[code].EXPLAINS if mode in {t.value for t in m.targets}]
        assert any(m.matches(error) for m in declared), f"{key} {mode}: no rule of {sorted(applied)} declares {error!r}"
