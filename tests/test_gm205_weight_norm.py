"""GM205's fix, measured with MindSpore 2.10 in child processes (no mocks of MindSpore, no mindnlp needed).

tests/verify_rules/weight_norm/ holds the hostile Cell (HuBERT's positional convolution, written again small)
and a stand-in for mindnlp's functional `weight_norm` that does what mindnlp 0.3.1's does (numpy and
`Parameter.set_data` in a hijacked `construct`); bench/realcells measures the real one on HuBERT and
wav2vec2. Here:
- the verifier compiles the original (it fails in GRAPH, STRICT, a dynamic batch and export, with the
  `set_data` errors GM205 declares) and graphmend's own fix (it passes every check with PyNative's numbers);
- two child processes build the original and the fix in PyNative from the same seed, one each, and the test
  compares what the docstring's "Fix safety" says is kept: the Parameters' names, shapes and dtypes, the
  outputs, the weight Parameter after a call, and which Parameters gradients reach;
- the same comparison against the real mindnlp 0.3.1, when bench/realcells has fetched it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from verifying import Reports

from graphmend import fix_source
from graphmend.verify import CHECKS, Request, staging

HERE = Path(__file__).resolve().parent
CASE = HERE / "verify_rules" / "weight_norm" / "gm205_weight_norm.py"
REALCELLS = HERE.parent / "bench" / "realcells"


def _fixed() -> str:
    result = fix_source(CASE.read_text(encoding="utf-8"), str(CASE), select=["GM205"])
    assert [f.code for f in result.applied] == ["GM205"]
    return result.output


@pytest.fixture(scope="module")
def report(verifier):
    reports = Reports(verifier, lambda _: (Request(CASE, _fixed(), "PositionalConv", {}, ["float32[B,6,8]"]), 1))
    return reports["case"][0]


def test_the_original_fails_in_every_mode_with_the_errors_gm205_declares(report):
    from graphmend.rules.gm205_weight_norm import WeightNormHijack

    before = {v.check: v.problem for v in report.verdicts if v.version == "before" and not v.passed}
    assert set(before) == set(CHECKS)
    for check, problem in before.items():
        declared = [m for m in WeightNormHijack.EXPLAINS if m.matches(problem)]
        assert declared and check in {t.value for m in declared for t in m.targets}, (check, problem)


def test_the_fix_passes_every_check_with_the_numbers_of_pynative(report):
    assert report.reference.version == "before"
    assert [v.problem for v in report.verdicts if v.version == "after" and not v.passed] == []


# One version in PyNative, from a fixed seed: its Parameters, outputs, the weights a call leaves, and which
# Parameters gradients reach. Run once per version, each in its own process (the same module name).
_MEASURE = r"""
import importlib, json, sys
import numpy as np
import mindspore as ms
from mindspore import Tensor, ops

where, name, make, shape = sys.argv[1:5]
sys.path[:0] = json.loads(where)
module = importlib.import_module(name)
ms.set_seed(0)
np.random.seed(0)
net = eval(make)
x = Tensor(np.random.RandomState(1).randn(*json.loads(shape)).astype(np.float32))
out = net(x).asnumpy()
grads = ms.grad(net, grad_position=None, weights=net.trainable_params())(x)
print(json.dumps({
    "params": {p.name: [list(p.shape), str(p.dtype)] for p in net.get_parameters()},
    "out": out.tolist(),
    "weights": {p.name: p.asnumpy().tolist() for p in net.get_parameters()},
    "reached": sorted(p.name for p, g in zip(net.trainable_params(), grads) if float(ops.abs(g).sum()) > 0),
}))
"""


def _measure(where: list[str], name: str, make: str, shape: list[int]) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", _MEASURE, json.dumps(where), name, make, json.dumps(shape)],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def _before_and_after(tmp_path: Path, path: Path, source: str, make: str, shape: list[int], site=()):
    module = staging.locate(path)
    original = staging.original_version(module)
    fixed = staging.rewritten_version(module, source, tmp_path / "fixed")
    return [_measure([*v.sys_path, *site], module.name, make, shape) for v in (original, fixed)]


def _biggest_difference(a, b) -> float:
    return float(np.abs(np.asarray(a, np.float64) - np.asarray(b, np.float64)).max())


def _assert_kept(before: dict, after: dict) -> None:
    assert before["params"] == after["params"]  # names, shapes, dtypes: checkpoints load as before
    assert _biggest_difference(before["out"], after["out"]) < 1e-5
    for name, value in before["weights"].items():  # the weight a call stores, g and v
        assert _biggest_difference(value, after["weights"][name]) < 1e-5, name
    assert before["reached"] == after["reached"]
    assert not any(n.endswith(("_g", "_v")) for n in after["reached"])  # neither version trains g or v


def test_the_fix_keeps_parameters_numbers_state_and_gradients_in_pynative(tmp_path):
    before, after = _before_and_after(tmp_path, CASE, _fixed(), "module.PositionalConv()", [2, 6, 8])
    _assert_kept(before, after)
    assert sorted(after["params"]) == ["conv.bias", "conv.weight", "conv.weight_g", "conv.weight_v",
                                       "head.bias", "head.weight", "head.weight_g", "head.weight_v"]  # fmt: skip
    assert "conv.weight" in after["reached"]


HUBERT = REALCELLS / "src" / "mindnlp" / "mindnlp" / "transformers" / "models" / "hubert" / "modeling_hubert.py"


@pytest.mark.skipif(
    not HUBERT.is_file(), reason="mindnlp 0.3.1 is not fetched: run .venv/bin/python bench/realcells/fetch.py"
)
def test_the_same_against_the_real_mindnlp_on_hubert_positional_convolution(tmp_path):
    fixed = fix_source(HUBERT.read_text(encoding="utf-8"), str(HUBERT), select=["GM205"])
    assert [f.code for f in fixed.applied] == ["GM205"]
    config = (
        "importlib.import_module('mindnlp.transformers.models.hubert.configuration_hubert').HubertConfig("
        "hidden_size=8, num_conv_pos_embeddings=4, num_conv_pos_embedding_groups=2)"
    )
    make = f"module.HubertPositionalConvEmbedding({config})"
    before, after = _before_and_after(tmp_path, HUBERT, fixed.output, make, [2, 6, 8], [str(REALCELLS / "site")])
    _assert_kept(before, after)
    assert sorted(after["params"]) == ["conv.bias", "conv.weight", "conv.weight_g", "conv.weight_v"]
