"""The real-Cell harness end to end (bench/realcells): a Cell of the mindcv wheel, fixed by graphmend
and compiled by the verifier in every mode with real MindSpore, then summarized as `make realcells` does.

Skipped when the wheels are not fetched (`.venv/bin/python bench/realcells/fetch.py`).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench" / "realcells"
sys.path.insert(0, str(BENCH))

import fetch  # noqa: E402
import run  # noqa: E402
from cells import CELLS  # noqa: E402

pytestmark = pytest.mark.skipif(
    not fetch.fetched(), reason="the real-Cell wheels are not fetched: run .venv/bin/python bench/realcells/fetch.py"
)

# `np.ones(labels.shape[0])`-style host numpy in construct: fine on a static batch, broken on a dynamic one
KEY = "mindcv:asymmetric.AsymmetricLossSingleLabel"


@pytest.fixture(scope="module")
def measured() -> run.Measured:
    return run.measure(next(c for c in CELLS if c.key == KEY))


def test_the_dynamic_batch_fails_before_and_passes_after_the_safe_fix(measured):
    dynamic = measured.modes["dynamic"]
    assert dynamic["before"]["status"] == "fail", dynamic
    assert dynamic["safe"]["status"] == "pass", dynamic
    assert "GM101" in measured.applied["safe"]


def test_no_mode_that_passed_before_fails_after(measured):
    assert measured.modes["pynative"]["before"]["status"] == "pass"
    for mode, row in measured.modes.items():
        for variant in ("safe", "unsafe"):
            assert not (run.passed(row["before"]) and row[variant]["status"] == "fail"), (mode, variant, row)


def test_the_summary_counts_the_pair_as_fixed(measured):
    summary = run.summarize([measured])
    assert summary["pairs"] == 4
    assert summary["failing_before"] == 1
    assert summary["safe"]["fixed"] == 1 and summary["safe"]["passed_before_fail_after"] == []
    table = run.render([measured], summary, 60.0)
    assert f"| `{KEY}` | GM101 | GM101 / GM101 | ✓ → ✓ → ✓ | ✓ → ✓ → ✓ | ✓ → ✓ → ✓ | ✗ → ✓ → ✓ |" in table


def test_a_rewrite_that_changes_pynative_numbers_is_caught():
    """pynative.py, the harness's PyNative comparison, on a hand-broken rewrite (the loss doubled)."""
    cell = next(c for c in CELLS if c.key == KEY)
    path = fetch.SRC / cell.package / cell.path
    source = path.read_text(encoding="utf-8")
    broken = source.replace("        return loss\n", "        return loss * 2\n", 1)
    assert broken != source
    got = run._in_pynative(cell, path, source, {"safe": _Fixed(broken), "unsafe": _Fixed(broken)})
    assert got["safe"]["status"] == "fail" and "differ" in got["safe"]["problem"], got


class _Fixed:
    """What `fix_source` returns, as far as `_in_pynative` reads it: the rewritten source."""

    def __init__(self, output: str):
        self.output = output
