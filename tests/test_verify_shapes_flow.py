"""The shape and control-flow rules' fixes, proven with the verifier: real GRAPH_MODE compiles, no mocks.

Each Cell under tests/verify_rules/shapes_flow/ is the hostile code; the version after is graphmend's
own fix of it (`fix_source` with that rule alone). Each report is computed the first time a test reads it,
on the test process's pair of verify workers (tests/conftest.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from verifying import Reports

from graphmend import fix_source
from graphmend.verify import CHECKS, Report, Request

CELLS = Path(__file__).resolve().parent / "verify_rules" / "shapes_flow"
INPUT = ["float32[B,3,4,4]"]

# file → (rule, Cell, unsafe fixes, input specs, checks)
CASES = {
    "gm301_len_of_tensor": ("GM301", "BatchFlatten", False, INPUT, None),
    "gm302_view_minus_one": ("GM302", "Flattens", True, INPUT, None),
    "gm303_round_slice_bound": ("GM303", "KeepRate", False, INPUT, None),
    "gm304_dynamic_repeats": ("GM304", "AllPairs", False, INPUT, None),
    "gm305_numpy_where_dynamic": ("GM305", "Margin", False, ["float32[B,5]"], None),
    "gm306_numpy_arange_dynamic": ("GM306", "GatherByLabel", False, ["float32[B,8,3]", "float32[B,2,1]{0,3}"], None),
    "gm401_tensor_condition": ("GM401", "Branches", True, INPUT, None),
    "gm402_dynamic_loop": ("GM402", "PerRow", False, INPUT, ["graph", "dynamic"]),
}


def _request(name: str) -> tuple[Request, int]:
    rule, cell, unsafe, inputs, checks = CASES[name]
    path = CELLS / f"{name}.py"
    result = fix_source(path.read_text(encoding="utf-8"), str(path), unsafe=unsafe, select=[rule])
    return Request(path, result.output, cell, {}, inputs, checks=checks), len(result.applied)


@pytest.fixture(scope="session")
def reports(verifier) -> Reports:
    return Reports(verifier, _request)


def failing(report: Report, version: str) -> set[str]:
    return {v.check for v in report.verdicts if v.version == version and not v.passed}


@pytest.mark.parametrize("name", [n for n in CASES if CASES[n][0] != "GM402"])
def test_the_fix_passes_every_check_with_the_numbers_of_pynative(reports, name):
    report, applied = reports[name]
    assert applied, f"{name}: graphmend fixed nothing"
    assert report.checks == CHECKS
    assert report.reference.version == "before", report.reference
    assert failing(report, "after") == set(), [v.problem for v in report.verdicts if not v.passed]


def test_gm301_len_of_a_dynamic_batch_used_as_a_shape_fails_only_dynamic(reports):
    report, _ = reports["gm301_len_of_tensor"]
    assert failing(report, "before") == {"dynamic"}
    assert "Reshape" in report.verdict("dynamic", "before").problem


def test_gm303_round_as_a_slice_bound_fails_every_graph_config(reports):
    report, _ = reports["gm303_round_slice_bound"]
    assert failing(report, "before") == set(CHECKS)
    assert "MakeSlice" in report.verdict("graph", "before").problem


def test_gm304_repeat_interleave_by_the_batch_fails_only_dynamic(reports):
    report, _ = reports["gm304_dynamic_repeats"]
    assert "dynamic" in failing(report, "before")
    assert "input_data" in report.verdict("dynamic", "before").problem


def test_gm302_minus_one_works_everywhere_in_mindspore_2_10(reports):
    """Why GM302 is off by default: MindSpore 2.10 infers the -1 in every configuration."""
    report, applied = reports["gm302_view_minus_one"]
    assert applied == 4
    assert failing(report, "before") == set(), [v.problem for v in report.verdicts if not v.passed]


def test_gm401_python_ifs_on_tensors_compile_and_the_selects_keep_the_numbers(reports):
    """Both branches of every `if` run (inputs of both signs), the Parameter update included."""
    report, applied = reports["gm401_tensor_condition"]
    assert applied == 7
    assert failing(report, "before") == set(), [v.problem for v in report.verdicts if not v.passed]
    compared = {c.name for c in report.verdict("graph", "after").comparisons}
    assert {"call 1 param step", "call 2 param step"} <= compared


def test_gm402_a_comprehension_over_the_batch_fails_with_a_dynamic_batch_only(reports):
    report, applied = reports["gm402_dynamic_loop"]
    assert applied == 0
    assert failing(report, "before") == {"dynamic"}
    assert "subscriptable" in report.verdict("dynamic", "before").problem


def test_gm305_mindspore_numpy_where_fails_only_a_dynamic_batch(reports):
    report, applied = reports["gm305_numpy_where_dynamic"]
    assert applied == 2  # the helper's too: its one caller passes a bool mask
    assert failing(report, "before") == {"dynamic"}
    assert "but got Tensor[Bool]" in report.verdict("dynamic", "before").problem


def test_gm306_mindspore_numpy_arange_of_the_batch_fails_only_a_dynamic_batch(reports):
    report, applied = reports["gm306_numpy_arange_dynamic"]
    assert applied == 5
    assert failing(report, "before") == {"dynamic"}
    assert "must be real number, not NoneType" in report.verdict("dynamic", "before").problem
