"""MindSpore's documented limits (bench/limits): the committed measurement covers every case, and the README
table and docs/limits.md are what the rows, the measurement and the rule registry give — never edited by hand.

`make limits` re-measures (MindSpore child processes, a few minutes); GRAPHMEND_UPDATE_DOCS=1 only re-renders.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench" / "limits"))

import cases  # noqa: E402
import table  # noqa: E402

from graphmend import RULES  # noqa: E402

UPDATE = os.environ.get("GRAPHMEND_UPDATE_DOCS") == "1"


@pytest.fixture(scope="module")
def data() -> dict:
    return table.load()


def test_rows_are_the_fifty_documented_rows_and_case_names_are_unique() -> None:
    assert [row.number for row in cases.ROWS] == list(range(1, 51))
    names = [case.name for _, case in cases.all_cases()]
    assert len(names) == len(set(names))
    assert all(name.isidentifier() for name in names)


def test_every_case_is_measured_in_every_mode(data) -> None:
    names = {case.name for _, case in cases.all_cases()}
    assert set(data["results"]) == names, "docs/limits.json is out of date: run `make limits`"
    for name, got in data["results"].items():
        assert set(got) == {"pynative", *table.MODES}, name


def test_rows_name_existing_rules_and_every_limits_rule_has_a_row() -> None:
    named = {code for row in cases.ROWS for code in row.rules}
    assert named <= set(RULES), named - set(RULES)
    family = {code for code in RULES if code.startswith("GM6")}
    assert family <= named, f"rules of the GM6xx family no row names: {sorted(family - named)}"


def test_every_row_that_reproduces_says_what_covers_it(data) -> None:
    for row in cases.ROWS:
        if table.reproduces(row, data["results"]):
            assert row.rules or row.why, f"row {row.number} reproduces on MindSpore but names no rule and no reason"


def test_readme_table_and_docs_are_generated(data) -> None:
    readme = table.README.read_text(encoding="utf-8")
    block = table.readme_block(data)
    doc = table.markdown(data)
    if UPDATE:
        table.README.write_text(table.replace_block(readme, block), encoding="utf-8")
        table.DOC.write_text(doc, encoding="utf-8")
        table.PACKAGED.write_text(table.packaged(data), encoding="utf-8")
        readme = table.README.read_text(encoding="utf-8")
    assert table.replace_block(readme, block) == readme, "README limits table is stale (GRAPHMEND_UPDATE_DOCS=1)"
    assert table.DOC.read_text(encoding="utf-8") == doc, "docs/limits.md is stale (GRAPHMEND_UPDATE_DOCS=1)"
    shipped = table.PACKAGED.read_text(encoding="utf-8")
    assert shipped == table.packaged(data), "codemods/documented_limits.json is stale (GRAPHMEND_UPDATE_DOCS=1)"
