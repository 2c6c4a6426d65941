"""Targets (issue 21): each rule's BREAKS checked against the measurement in docs/evidence.md, findings
reported only for the targets they break, and the default target read from the checked code itself."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from graphmend import RULES
from graphmend.deploy import default, signs
from graphmend.evidence import CELLS, Measured, disagreements, from_markdown
from graphmend.targets import ALL, DYNAMIC, EXPORT, GRAPH, STRICT, Target

REPO = Path(__file__).resolve().parents[1]
EVIDENCE = REPO / "docs" / "evidence.md"
GRAPHMEND = str(Path(sys.executable).parent / "graphmend")

# GM101 (dynamic), GM103 (strict, export), GM201 (every target), GM301 (dynamic)
MODEL = textwrap.dedent(
    """\
    import mindspore as ms
    import numpy as np
    from mindspore import nn, ops


    class Head(nn.Cell):
        def __init__(self):
            super().__init__()
            self.p = ms.Parameter(ms.Tensor(np.zeros((2, 4)), ms.float32))

        def construct(self, x):
            mask = ms.Tensor(np.ones((x.shape[0], 4)), ms.float32)
            y = ms.Tensor(np.sqrt(ops.abs(x)), ms.float32)
            self.p.set_data(x)
            return x * mask + y * len(x)
    """
)


def gm(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200"}
    return subprocess.run([GRAPHMEND, *args], cwd=cwd, capture_output=True, text=True, env=env, timeout=600)


def codes(done: subprocess.CompletedProcess) -> list[str]:
    return sorted(f["code"] for f in json.loads(done.stdout))


# -- BREAKS against the measurement ---------------------------------------------------------------


def test_breaks_agree_with_the_committed_evidence() -> None:
    rows = from_markdown(EVIDENCE.read_text(encoding="utf-8"))
    assert sorted(rows) == sorted(RULES), "docs/evidence.md is out of date: run `make evidence`"
    assert disagreements(rows) == []


def test_the_cases_no_check_runs_are_named_not_pretended() -> None:
    # GM104 (dynamic + STRICT), GM302 (older MindSpore, Lite), GM401 (dynamic export), GM611 (a setter
    # between two calls, measured by bench/limits row 10), GM613 (an export call, outside the Cell):
    # `together=`, and GM509 (eval mode, random):
    # `pynative=` with every check passing. Each carries its Cell's note.
    unmeasured = {code for code, rule in RULES.items() if rule.BREAKS.together}
    assert unmeasured == {"GM104", "GM302", "GM401", "GM611", "GM613"}
    rows = from_markdown(EVIDENCE.read_text(encoding="utf-8"))
    shown_by_no_check = {c for c, r in RULES.items() if r.BREAKS.pynative and not rows[c].pynative}
    assert shown_by_no_check == {"GM509"}
    for code in unmeasured | shown_by_no_check:
        assert CELLS[code].note and f"- {code}: {CELLS[code].note}" in EVIDENCE.read_text(encoding="utf-8")


def test_a_breaks_that_disagrees_with_the_measurement_is_reported() -> None:
    rows = from_markdown(EVIDENCE.read_text(encoding="utf-8"))
    rows["GM101"] = Measured(frozenset({"dynamic", "strict"}))  # as if STRICT had rejected it too
    rows["GM103"] = Measured(frozenset({"strict", "export"}), pynative=True)
    found = disagreements(rows)
    assert len(found) == 2
    assert found[0].startswith("GM101: BREAKS says it breaks under dynamic;") and "under strict, dynamic" in found[0]
    assert found[1] == "GM103: the original fails in PyNative too; BREAKS must say pynative=True"


def test_targets_are_cumulative_as_measured() -> None:
    # every pattern that fails under graph failed under strict, dynamic and export; every one that failed
    # under strict failed in the export (docs/evidence.md): so strict, dynamic and export imply graph,
    # and export implies strict
    rows = from_markdown(EVIDENCE.read_text(encoding="utf-8"))
    for code, row in rows.items():
        if row.failing and "graph" in row.failing:
            assert {"strict", "dynamic", "export"} <= row.failing, code
        if row.failing and "strict" in row.failing:
            assert "export" in row.failing, code
    assert [t.value for t in RULES["GM103"].BREAKS.targets] == ["strict", "export"]
    # GM104: a dynamic batch (measured: gm104_scalar_from_batch.py, mindone's SelfAttention1d), and
    # STRICT + dynamic together, which no check runs
    assert [t.value for t in RULES["GM104"].BREAKS.targets] == ["dynamic", "export"]
    assert RULES["GM104"].BREAKS.applies({STRICT, DYNAMIC}) and not RULES["GM104"].BREAKS.applies({STRICT})
    assert RULES["GM509"].BREAKS.targets == tuple(Target)  # silent: every target
    assert all(rule.BREAKS.applies({EXPORT}) for rule in RULES.values())  # the default reports everything


# -- the same file under two targets --------------------------------------------------------------


def test_graph_reports_fewer_findings_than_export_each_explained_by_breaks(tmp_path: Path) -> None:
    (tmp_path / "head.py").write_text(MODEL)
    export = gm("check", "head.py", "--no-cache", "--output-format", "json", "--target", "export", cwd=tmp_path)
    graph = gm("check", "head.py", "--no-cache", "--output-format", "json", "--target", "graph", cwd=tmp_path)
    assert codes(export) == ["GM101", "GM103", "GM201", "GM301"]
    assert codes(graph) == ["GM201"]
    for finding in json.loads(export.stdout):
        reported_for_graph = "graph" in finding["targets"]
        assert reported_for_graph == (finding["code"] in codes(graph))
        assert reported_for_graph == RULES[finding["code"]].BREAKS.applies({GRAPH})
    both = gm("check", "head.py", "--no-cache", "--output-format", "json", "--target", "graph,strict", cwd=tmp_path)
    assert codes(both) == ["GM103", "GM201"]
    repeated = gm("check", "head.py", "--no-cache", "--output-format", "json", "--target", "graph", "--target",
                  "dynamic", cwd=tmp_path)  # fmt: skip
    assert codes(repeated) == ["GM101", "GM201", "GM301"]


def test_summary_and_sarif_say_the_target(tmp_path: Path) -> None:
    (tmp_path / "head.py").write_text(MODEL)
    done = gm("check", "head.py", "--no-cache", "--target", "strict", cwd=tmp_path)
    assert done.returncode == 1
    assert "target: strict (--target)" in done.stderr
    assert "GM101" not in done.stdout and "GM103" in done.stdout
    sarif = json.loads(gm("check", "head.py", "--no-cache", "--output-format", "sarif", cwd=tmp_path).stdout)
    rules = {r["id"]: r["properties"] for r in sarif["runs"][0]["tool"]["driver"]["rules"]}
    assert rules["GM103"]["targets"] == ["strict", "export"]
    assert rules["GM103"]["breaks"]["measured"] == ["strict", "export"]
    assert rules["GM201"]["targets"] == [t.value for t in Target]


def test_an_unknown_target_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "head.py").write_text(MODEL)
    done = gm("check", "head.py", "--target", "gpu", cwd=tmp_path)
    assert done.returncode == 2
    assert "--target: expected one or more of graph, strict, dynamic, export, got 'gpu'" in done.stderr


# -- the default: what the code asks for ----------------------------------------------------------


def test_a_tree_that_sets_strict_gets_the_strict_target_without_a_flag(tmp_path: Path) -> None:
    (tmp_path / "head.py").write_text(MODEL)
    (tmp_path / "train.py").write_text("import mindspore as ms\n\nms.set_context(jit_syntax_level=ms.STRICT)\n")
    done = gm("check", ".", "--no-cache", cwd=tmp_path)
    assert "target: strict (jit_syntax_level in train.py:3)" in done.stderr
    assert "GM103" in done.stdout and "GM101" not in done.stdout and "GM301" not in done.stdout
    settings = gm("check", ".", "--show-settings", cwd=tmp_path)
    assert "target: strict (jit_syntax_level in train.py:3)" in settings.stdout


def test_without_a_sign_the_target_is_export(tmp_path: Path) -> None:
    (tmp_path / "head.py").write_text(MODEL)
    done = gm("check", ".", "--no-cache", cwd=tmp_path)
    assert "target: export (the default:" in done.stderr
    assert all(code in done.stdout for code in ("GM101", "GM103", "GM201", "GM301"))


def _sign_targets(source: str) -> set[Target]:
    return {s.target for s in signs(textwrap.dedent(source).encode(), "x.py")}


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("import mindspore\nmindspore.set_context(jit_syntax_level=mindspore.STRICT)\n", {STRICT}),
        ("from mindspore import context\ncontext.set_context(jit_syntax_level=0)\n", {STRICT}),
        ("from mindspore import JitConfig\ncfg = JitConfig(jit_syntax_level='STRICT')\n", {STRICT}),
        ("from mindspore import set_context, LAX\nset_context(jit_syntax_level=LAX)\n", set()),
        ("import os\nos.environ['MS_DEV_JIT_SYNTAX_LEVEL'] = '0'\n", {STRICT}),
        ("import os\nos.environ.setdefault('MS_DEV_JIT_SYNTAX_LEVEL', '2')\n", set()),
        ("import mindspore as ms\nx = ms.Tensor(shape=[None, 3], dtype=ms.float32)\n", {DYNAMIC}),
        ("from mindspore import Tensor\nnet.set_inputs(Tensor(shape=(None, 8), dtype=None))\n", {DYNAMIC}),
        ("import mindspore as ms\nx = ms.Tensor(shape=[2, 3], dtype=ms.float32)\n", set()),
        ("from mindspore import export as save\nsave(net, x, file_name='n', file_format='MINDIR')\n", {EXPORT}),
        ("import mindspore as ms\nms.export(net, x, file_name='n', file_format='MINDIR')\n", {EXPORT}),
        # names resolve: these are not MindSpore's
        ("import torch\ntorch.onnx.export(model, x, 'm.onnx')\n", set()),
        ("def export(x):\n    return x\nexport(1)\n", set()),
        ("class A:\n    def run(self):\n        self.export(jit_syntax_level=0)\n", set()),
        # scope by scope, as Python resolves them (each agrees with libcst's qualified names)
        ("from mindspore import export\ndef f(export):\n    export(net)\n", set()),
        ("import mindspore as ms\nclass A:\n    ms = None\n    def run(self):\n        ms.export(net, x)\n", {EXPORT}),
        ("import mindspore as ms\nclass A:\n    ms = None\n    ms.export(net, x)\n", set()),
        ("def f():\n    from mindspore import export\n    def g():\n        export(net, x)\n", {EXPORT}),
        ("import mindspore as ms\nf = lambda ms: ms.export(net)\n", set()),
    ],
)
def test_signs_are_resolved_names(source: str, expected: set[Target]) -> None:
    assert _sign_targets(source) == expected


def test_the_default_names_the_first_sign_of_each_target() -> None:
    files = [
        ("a.py", b"import mindspore as ms\nms.export(net, x, file_name='n', file_format='MINDIR')\n"),
        ("b.py", b"import os\n\nos.environ['MS_DEV_JIT_SYNTAX_LEVEL'] = 'strict'\n"),
    ]
    choice = default(files)
    assert choice.targets == {STRICT, EXPORT}
    assert str(choice) == "target: strict, export (MS_DEV_JIT_SYNTAX_LEVEL in b.py:3; ms.export(...) in a.py:2)"
    assert default([("c.py", b"x = 1\n")]).targets == {EXPORT} and ALL == frozenset(Target)


# -- the config -----------------------------------------------------------------------------------


def test_config_target_is_used_and_the_flag_overrides_it(tmp_path: Path) -> None:
    (tmp_path / "head.py").write_text(MODEL)
    (tmp_path / "pyproject.toml").write_text('[tool.graphmend]\ntarget = ["graph"]\n')
    done = gm("check", ".", "--no-cache", "--output-format", "json", cwd=tmp_path)
    assert codes(done) == ["GM201"]
    text = gm("check", ".", "--no-cache", cwd=tmp_path)
    assert f"target: graph (target in {tmp_path / 'pyproject.toml'})" in text.stderr
    flag = gm("check", ".", "--no-cache", "--output-format", "json", "--target", "export", cwd=tmp_path)
    assert codes(flag) == ["GM101", "GM103", "GM201", "GM301"]


@pytest.mark.parametrize("value", ['["gpu"]', '"graph"', "[]", "[1]"])
def test_a_wrong_config_target_names_the_file(tmp_path: Path, value: str) -> None:
    (tmp_path / "head.py").write_text(MODEL)
    config = tmp_path / "pyproject.toml"
    config.write_text(f"[tool.graphmend]\ntarget = {value}\n")
    done = gm("check", ".", cwd=tmp_path)
    assert done.returncode == 2
    expected = f"{config}: [tool.graphmend] target: expected a list of graph, strict, dynamic, export, got {value}"
    assert expected in done.stderr


def test_rule_pages_say_for_which_targets(tmp_path: Path) -> None:
    page = gm("rules", "GM103", cwd=tmp_path).stdout
    assert "Breaks: strict, export (" in page and "Reported for targets: strict, export" in page
    listing = json.loads(gm("rules", "GM101", "--output-format", "json", cwd=tmp_path).stdout)
    assert listing["targets"] == ["dynamic", "export"] and listing["breaks"]["measured"] == ["dynamic"]


def test_a_warm_run_reads_the_signs_from_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from graphmend import deploy
    from graphmend.runner import Cache

    files = [("train.py", b"import mindspore as ms\n\nms.set_context(jit_syntax_level=ms.STRICT)\n")]
    cache = Cache(tmp_path / ".graphmend_cache", key=b"k" * 64)
    first = default(files, cache)
    assert first.targets == {STRICT} and "train.py:3" in first.why

    def parsed(data: bytes, path: str) -> list:
        raise AssertionError(f"{path} parsed again")

    monkeypatch.setattr(deploy, "signs", parsed)
    assert default(files, cache) == first  # every sign from the cache: nothing parsed
    # an entry signed with another key is not ours: the file is parsed again
    with pytest.raises(AssertionError, match="parsed again"):
        default(files, Cache(tmp_path / ".graphmend_cache", key=b"x" * 64))
