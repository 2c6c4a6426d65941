"""The PyTorch-port rules' fixes (GM501–GM511), proven with the verifier: real GRAPH_MODE compiles, no mocks.

Each Cell under tests/verify_rules/torch_port/ is the hostile code; the version after is graphmend's own
fix of it (`fix_source` with that rule alone). Each report is computed the first time a test reads it,
on the test process's pair of verify workers (tests/conftest.py). Where the original fails even in
PyNative (`x.size(0)`, `dim=`, `repeat` on CPU, `.cpu()`, torch calls), the verifier takes the rewritten
version in PyNative as the reference, and the tests say so.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from verifying import Reports

from graphmend import fix_source
from graphmend.rules._torch_table import DIM_KEYWORDS, TORCH_FUNCTIONS
from graphmend.verify import Report, Request

CELLS = Path(__file__).resolve().parent / "verify_rules" / "torch_port"
CHECKED = ("graph", "strict", "dynamic")  # export passed too when measured; left out to keep this file fast

# case → (file, rule, Cell, input specs, train mode)
CASES = {
    "size": ("gm501_torch_size", "GM501", "Prenet", ["float32[B,4,8]"], False),
    "dim": ("gm502_dim_keyword", "GM502", "EveryEntry", ["float32[B,3,4]"], False),
    "transpose": ("gm503_torch_transpose", "GM503", "Attention", ["float32[B,3,4,5]"], False),
    "transpose_2d": ("gm503_torch_transpose", "GM503", "Square", ["float32[B,3,4,4]"], False),
    "argmax": ("gm504_argmax_no_axis", "GM504", "Decoder", ["float32[B,3,4]"], False),
    "max_pairs": ("gm505_max_positional_axis", "GM505", "Pairs", ["float32[B,3,4]"], False),
    "max_values": ("gm505_max_positional_axis", "GM505", "Values", ["float32[B,3,4]"], False),
    "expand": ("gm506_torch_expand", "GM506", "Embeddings", ["float32[B,3,8,8]"], False),
    "repeat": ("gm507_torch_repeat", "GM507", "Tiles", ["float32[B,3,4,4]"], False),
    "repeat_axis0": ("gm507_torch_repeat", "GM507", "ElementRepeat", ["float32[B,3,4]"], False),
    "repeat_axis2": ("gm507_torch_repeat", "GM507", "UpsampleByRepeat", ["float32[B,3,4]"], False),
    "repeat_after_conv": ("gm507_torch_repeat", "GM507", "UpsampleAfterConv", ["float32[B,3,4]"], False),
    "list_sizes": ("gm507_list_sizes", "GM507", "SideTiles", ["float32[B,4,3]", "float32[B,2,3]"], False),
    "star_sizes": ("gm507_list_sizes", "GM506", "Newline", ["float32[B,4,3]"], False),
    "device": ("gm508_device_move", "GM508", "Head", ["float32[B,3,4]"], False),
    "dropout_train": ("gm509_dropout_training", "GM509", "Attention", ["float32[B,3,4,4]"], True),
    "dropout_eval": ("gm509_dropout_training", "GM509", "Attention", ["float32[B,3,4,4]"], False),
    "dropout_eval_fixed": ("gm509_dropout_training", "GM509", "Attention", ["float32[B,3,4,4]"], False),
    "torch": ("gm510_torch_call", "GM510", "Block", ["float32[B,3,4,4]"], False),
    "torch_table": ("gm510_torch_call", "GM510", "EveryEntry", ["float32[B,3,4,4]"], False),
    "einsum": ("gm511_einsum", "GM511", "Einsums", ["float32[B,3,4,5]"], False),
    "einsum_ported": ("gm511_einsum", "GM511", "PortedEinsum", ["float32[B,3,4,5]"], False),
    "mint_einsum": ("gm512_mint_einsum", "GM512", "MintEinsums", ["float32[B,2,3,4]"], False),
}
# the original fails in PyNative too: the rewritten version is the reference
PYNATIVE_FAILS = {"size", "dim", "max_values", "repeat", "repeat_axis0", "repeat_axis2", "repeat_after_conv",
                  "list_sizes", "device", "torch", "torch_table", "einsum", "einsum_ported", "mint_einsum"}  # fmt: skip
# the fix changes what the original computes where its caveat applies (eval mode)
CAVEAT = {"dropout_eval"}


def _request(case: str, scratch: Path) -> tuple[Request, int]:
    name, rule, cell, inputs, train = CASES[case]
    path = CELLS / f"{name}.py"
    result = fix_source(path.read_text(encoding="utf-8"), str(path), unsafe=True, select=[rule])
    if case == "dropout_eval_fixed":  # the fixed Cell against itself: deterministic in every mode?
        path = scratch / f"{name}_fixed.py"
        path.write_text(result.output, encoding="utf-8")
    return Request(path, result.output, cell, {}, inputs, checks=CHECKED, train=train), len(result.applied)


@pytest.fixture(scope="session")
def reports(verifier, tmp_path_factory) -> Reports:
    scratch = tmp_path_factory.mktemp("torch_port")
    return Reports(verifier, lambda case: _request(case, scratch))


def verdict(report: Report, check: str, version: str):
    return next(v for v in report.verdicts if v.check == check and v.version == version)


def failing(report: Report, version: str) -> set[str]:
    return {v.check for v in report.verdicts if v.version == version and not v.passed}


@pytest.mark.parametrize("case", [c for c in CASES if c not in CAVEAT])
def test_the_fix_passes_every_check_with_the_numbers_of_pynative(reports, case):
    report, applied = reports[case]
    assert applied, f"{case}: graphmend fixed nothing"
    assert report.checks == CHECKED
    expected_reference = "after" if case in PYNATIVE_FAILS else "before"
    assert report.reference.version == expected_reference, report.reference
    assert failing(report, "after") == set(), [v.problem for v in report.verdicts if not v.passed]


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("size", "'int' object is not callable"),
        ("dim", "softmax() got an unexpected keyword argument 'dim'"),
        ("repeat", "'repeat' is not supported on this device."),
        ("device", "Failed to convert the value \"cuda\" of input 'device' of 'to' to enum."),
        ("max_values", "'tuple' object has no attribute 'expand_dims'"),
    ],
)
def test_a_half_done_port_fails_in_pynative_and_is_compared_with_the_fix(reports, case, message):
    report, _ = reports[case]
    (version, failure), *_ = report.reference.failures
    assert version == "before" and failure.message == message


@pytest.mark.parametrize("case", [*sorted(PYNATIVE_FAILS - {"max_values", "mint_einsum"}), "transpose", "expand"])
def test_the_original_fails_every_graph_configuration(reports, case):
    assert failing(reports[case][0], "before") == set(CHECKED)


def test_mint_einsum_compiles_with_static_shapes_and_fails_with_a_dynamic_batch(reports):
    """GM512's target: its original runs in GRAPH, STRICT and export (with the numbers of the fix's PyNative run,
    which GM511's tests check against numpy's einsum), not with a dynamic batch."""
    report, applied = reports["mint_einsum"]
    assert applied == 4
    assert failing(report, "before") == {"dynamic"}
    assert (
        "For EinsumExt, dynamic shape or dynamic rank is not supported yet"
        in verdict(report, "dynamic", "before").problem
    )


def test_gm507_element_repeat_of_a_tensor_a_convolution_made_3d_is_a_safe_fix():
    path = CELLS / "gm507_torch_repeat.py"
    result = fix_source(path.read_text(encoding="utf-8"), str(path), select=["GM507"])  # safe fixes only
    construct = result.output.split("class UpsampleAfterConv")[1]
    assert construct.count("ops.repeat_interleave(") == 2 and ".repeat(self" not in construct.split("construct")[1]
    # without a convolution to fix the rank, the same call is fixed only when unsafe fixes are asked for
    assert "x.repeat(self.factor, 2)" in result.output.split("class UpsampleByRepeat")[1].split("class ")[0]


def test_gm503_two_axis_transpose_of_a_2d_tensor_is_silently_the_identity_in_graph_mode(reports):
    report, _ = reports["transpose_2d"]
    for check in CHECKED:
        before = verdict(report, check, "before")
        assert before.failure is None and "values differ" in before.problem, check


def test_gm504_and_gm505_originals_compile_but_return_other_shapes(reports):
    argmax, _ = reports["argmax"]
    assert "shape (2, 3), the reference has ()" in verdict(argmax, "graph", "before").problem
    pairs, _ = reports["max_pairs"]
    problems = {c.name: c.problem for c in verdict(pairs, "graph", "before").comparisons}
    # x.max(1)[1] is a row of the values in GRAPH_MODE, the indices in PyNative
    assert problems["call 1 out[1]"] == "dtype Float32, the reference has Int64"


def test_gm509_original_drops_at_random_in_eval_mode_and_the_fix_is_deterministic(reports):
    original, _ = reports["dropout_eval"]
    assert original.reference.random  # ops.dropout defaults to training=True
    fixed, _ = reports["dropout_eval_fixed"]
    assert not fixed.reference.random and fixed.passed
    assert all(v.values_compared for v in fixed.verdicts)
    train, _ = reports["dropout_train"]
    assert train.reference.random and failing(train, "after") == set()  # training: random, as before


_SIGNATURES = """
import inspect, json, sys
from mindspore import ops
names = json.loads(sys.argv[1])
print(json.dumps({n: str(inspect.signature(getattr(ops, n)))[1:-1] for n in names}))
"""


def test_the_tables_record_the_installed_mindspore_signatures():
    recorded = {name: op.signature for name, op in DIM_KEYWORDS.items()}
    recorded |= {op.target: op.signature for op in TORCH_FUNCTIONS.values()}
    done = subprocess.run(
        [sys.executable, "-c", _SIGNATURES, json.dumps(sorted(recorded))],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    installed = json.loads(done.stdout.strip().splitlines()[-1])
    assert {n: s for n, s in recorded.items() if installed[n] != s} == {}
    for op in DIM_KEYWORDS.values():
        assert "dim" not in op.parameters and "axis" in op.parameters
