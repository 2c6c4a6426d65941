"""The GM6xx rules (MindSpore's documented limits), proven with the verifier: real GRAPH_MODE compiles.

Each Cell under tests/verify_rules/limits/ has the construct as MindSpore's documentation lists it; the
version after is graphmend's own fix (`fix_source` with that rule alone). Each report is computed the first
time a test reads it, on the test process's pair of verify workers (tests/conftest.py).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from verifying import Reports

from graphmend import fix_source
from graphmend.evidence import CELLS as EVIDENCE
from graphmend.verify import CHECKS, Report, Request
from graphmend.verify.report import render_json

REPO = Path(__file__).resolve().parents[1]
CODES = ("GM601", "GM602", "GM603", "GM604", "GM605", "GM606", "GM607", "GM608", "GM609", "GM610", "GM612", "GM614")
FIXED = ("GM602", "GM603", "GM604", "GM605", "GM607", "GM610", "GM612")
# the first line MindSpore 2.10 gives for each rule's construct, in every configuration
ERRORS = {
    "GM602": "The 'for...else...' statement is not supported now",
    "GM603": "Unsupported expression 'NamedExpr'",
    "GM604": "Unsupported statement 'Delete'",
    "GM605": "supports 1 'comprehension' in ListComp/GeneratorExp, but got 2 comprehensions",
    "GM606": "Unsupported statement 'Try'",
    "GM607": "is not supported in 'construct'",
    "GM610": "The parameters number of the function is 2, but the number of provided arguments is 1",
    "GM612": "The local variable 'y' is not defined in false branch, but defined in true branch",
}


def _request(code: str) -> tuple[Request, int]:
    cell = EVIDENCE[code]
    path = REPO / cell.path
    result = fix_source(path.read_text(encoding="utf-8"), str(path), unsafe=cell.unsafe, select=[code])
    return Request(path, result.output, cell.name, {}, list(cell.inputs)), len(result.applied)


@pytest.fixture(scope="session")
def reports(verifier) -> Reports:
    return Reports(verifier, _request)


def failing(report: Report, version: str) -> set[str]:
    return {v.check for v in report.verdicts if v.version == version and not v.passed}


def problems(report: Report, version: str) -> list[str]:
    return [" ".join((v.problem or "").split()) for v in report.verdicts if v.version == version and not v.passed]


@pytest.mark.parametrize("code", FIXED)
def test_the_original_fails_everywhere_and_the_fix_passes_with_the_numbers_of_pynative(reports, code):
    report, applied = reports[code]
    assert applied, f"{code}: graphmend fixed nothing"
    assert report.reference.version == "before", report.reference
    assert failing(report, "before") == set(CHECKS)
    assert all(ERRORS[code] in p for p in problems(report, "before")), problems(report, "before")
    assert failing(report, "after") == set(), problems(report, "after")


@pytest.mark.parametrize("code", ["GM606"])
def test_reported_constructs_fail_everywhere_with_the_measured_error(reports, code):
    report, applied = reports[code]
    assert applied == 0
    assert failing(report, "before") == set(CHECKS)
    assert all(ERRORS[code] in p for p in problems(report, "before")), problems(report, "before")


def test_gm601_an_aliased_list_gives_other_numbers_in_every_graph_config_without_an_error(reports):
    report, applied = reports["GM601"]
    assert applied == 0
    assert failing(report, "before") == set(CHECKS)
    assert all(p.startswith("call 1 out") and "values differ" in p for p in problems(report, "before")), problems(
        report, "before"
    )


def test_gm608_tensor_identity_is_false_under_lax_and_fails_under_strict(reports):
    report, applied = reports["GM608"]
    assert applied == 0
    assert failing(report, "before") == set(CHECKS)
    by_check = {v.check: " ".join((v.problem or "").split()) for v in report.verdicts if v.version == "before"}
    assert "values differ" in by_check["graph"] and "values differ" in by_check["dynamic"], by_check
    assert "values differ" not in by_check["strict"], by_check


def test_gm609_in_on_a_tensor_fails_strict_and_export_only_and_the_fix_passes_everywhere(reports):
    report, applied = reports["GM609"]
    assert applied == 2  # `2 in h` and `-1 not in h`, both tests of an op's result: safe
    assert report.reference.version == "before" and not report.reference.random
    assert failing(report, "before") == {"strict", "export"}
    message = "the inputs should be constant, but found variable"
    assert all(message in p for p in problems(report, "before")), problems(report, "before")
    assert failing(report, "after") == set(), problems(report, "after")


def test_gm614_a_duplicate_parameter_name_fails_export_only_and_the_renamed_one_passes_everywhere(reports):
    report, applied = reports["GM614"]
    assert applied == 1  # the second `name="weight"`, renamed after its attribute
    assert report.reference.version == "before" and not report.reference.random
    assert failing(report, "before") == {"export"}
    assert all("its name 'weight' already exists" in p for p in problems(report, "before")), problems(report, "before")
    assert failing(report, "after") == set(), problems(report, "after")


def test_gm610_a_classmethod_called_through_the_class_fails_and_its_fix_passes(verifier):
    """`type(self).m(x)`, `self.__class__.m(x)`, `Scaled.m(x)`: measured like `self.m(x)`, and found."""
    path = REPO / "tests/verify_rules/limits/gm610_classmethod_in_graph.py"
    result = fix_source(path.read_text(encoding="utf-8"), str(path), select=["GM610"])
    assert [(f.code, f.line) for f in result.applied] == [("GM610", 10), ("GM610", 21)]
    report = verifier.verify(Request(path, result.output, "ThroughTheClass", {}, ["float32[B,4]"]))
    assert failing(report, "before") == set(CHECKS), render_json(report)
    assert all(ERRORS["GM610"] in problem for problem in problems(report, "before"))
    assert failing(report, "after") == set(), render_json(report)


_EXPORT_BOTH = """
import json, sys
import numpy as np
import mindspore as ms
from mindspore import nn

x = ms.Tensor(np.arange(8, dtype=np.float32).reshape(2, 4))
result = {}
for name in ("before", "after"):
    module = __import__(name)
    module.export_scaled(x, name)
    loaded = nn.GraphCell(ms.load(name + ".mindir"))
    calls = {}
    for label, args in (("alone", (x,)), ("with_3", (x, ms.mutable(3)))):
        try:
            calls[label] = loaded(*args).asnumpy().tolist()
        except Exception as error:  # what the loaded MindIR says, for the assertion
            calls[label] = "error: " + str(error).splitlines()[0]
    result[name] = calls
print(json.dumps(result))
"""


def test_gm613_a_number_given_to_export_is_frozen_and_the_fix_keeps_it_an_input(tmp_path):
    """Both versions of the file's export script really export and load (a child process): the original's
    MindIR computes with the frozen 2 and refuses a value; the fix's takes 3 and returns x * 3."""
    path = REPO / "tests" / "verify_rules" / "limits" / "gm613_export_frozen_input.py"
    source = path.read_text(encoding="utf-8")
    fixed = fix_source(source, str(path), unsafe=True, select=["GM613"])
    assert [(f.code, f.line) for f in fixed.applied] == [("GM613", 13)]
    (tmp_path / "before.py").write_text(source, encoding="utf-8")
    (tmp_path / "after.py").write_text(fixed.output, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", _EXPORT_BOTH], cwd=tmp_path, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    x = [[float(i + 4 * r) for i in range(4)] for r in range(2)]
    assert result["before"]["alone"] == [[v * 2 for v in row] for row in x]
    assert "The input number of parameters is not Compatible" in result["before"]["with_3"]
    assert result["after"]["with_3"] == [[v * 3 for v in row] for row in x]
    assert result["after"]["alone"].startswith("error")


def test_gm606_set_displays_fail_everywhere_and_their_fix_passes_with_the_numbers_of_pynative(verifier):
    """The set forms of mindnlp's reformer and gpt_neo: `set(...)` of a tuple or a list comprehension, a tuple
    after `in` / `not in` (GM606's only fix; its evidence Cell is a `try`, which has none)."""
    path = REPO / "tests" / "verify_rules" / "limits" / "gm606_set_display.py"
    result = fix_source(path.read_text(encoding="utf-8"), str(path), select=["GM606"])
    assert len(result.applied) == 6
    assert fix_source(result.output, str(path), select=["GM606"]).findings == ()
    reports = Reports(verifier, lambda _: (Request(path, result.output, "SetForms", {}, ["float32[B,3]"]), 6))
    report = reports["sets"][0]
    assert failing(report, "before") == set(CHECKS)
    assert all("Unsupported expression 'Set" in p for p in problems(report, "before"))
    assert failing(report, "after") == set(), problems(report, "after")
