"""Golden cases: golden/<CODE>/<case>.py is fixed with that rule alone (golden/all/: every default rule)
and compared byte for byte with <case>.expected.py; the findings on the input with <case>.findings.txt.
A case whose name contains "unsafe" is fixed with unsafe fixes on. Fixing the output again changes nothing.

GRAPHMEND_UPDATE_GOLDEN=1 writes missing or different expectations: review them with `git diff`.
"""

import os
from pathlib import Path

import pytest

from graphmend import RULES, engine, select_rules

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
CASES = sorted(p for p in GOLDEN.glob("*/*.py") if not p.name.endswith(".expected.py"))
UPDATE = os.environ.get("GRAPHMEND_UPDATE_GOLDEN") == "1"


def _rules(case: Path):
    # GM000 judges the suppressions of the other rules, so its cases run with every default rule
    return select_rules(None if case.parent.name in ("all", "GM000") else [case.parent.name])


def _findings_text(case: Path, source: bytes) -> str:
    findings = engine.check(source, case.name, _rules(case))
    marks = {"safe": " [*]", "unsafe": " [unsafe]", None: ""}
    return "".join(f"{f.line}:{f.column}: {f.code}{marks[f.fix]} {f.message}\n" for f in findings)


def _compare(path: Path, actual: bytes) -> None:
    if UPDATE and (not path.exists() or path.read_bytes() != actual):
        path.write_bytes(actual)
    assert path.exists(), f"{path.name} is missing (GRAPHMEND_UPDATE_GOLDEN=1 writes it)"
    assert actual == path.read_bytes(), f"{path.relative_to(GOLDEN)} differs"


@pytest.mark.parametrize("case", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_golden_fix(case: Path) -> None:
    source = case.read_bytes()
    unsafe = "unsafe" in case.stem
    result = engine.fix(source, case.name, _rules(case), unsafe=unsafe)
    _compare(case.with_name(case.stem + ".expected.py"), result.output)
    again = engine.fix(result.output, case.name, _rules(case), unsafe=unsafe)
    assert again.output == result.output, "fixing the output again changed it"
    assert not again.applied


@pytest.mark.parametrize("case", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_golden_findings(case: Path) -> None:
    _compare(case.with_name(case.stem + ".findings.txt"), _findings_text(case, case.read_bytes()).encode())


@pytest.mark.parametrize("code", sorted(RULES))
def test_every_rule_has_golden_cases_that_fire_and_that_must_not_fire(code: str) -> None:
    cases = [c for c in CASES if c.parent.name == code]
    assert cases, f"golden/{code}/ has no cases"
    changed = [c for c in cases if c.read_bytes() != c.with_name(c.stem + ".expected.py").read_bytes()]
    untouched = [c for c in cases if c not in changed]
    assert changed or RULES[code].FIX == "none", f"no golden case of {code} is changed by its fix"
    assert untouched, f"no golden case of {code} shows code it must leave alone"


@pytest.mark.parametrize("code", sorted(RULES))
def test_rule_documentation_has_every_section(code: str) -> None:
    doc = RULES[code].__doc__ or ""
    for section in ("What it does:", "Why it breaks graph mode:", "Example:", "Fix safety:"):
        assert section in doc, f"{code} docstring lacks {section!r}"
    assert RULES[code].NAME and RULES[code].BREAKS
