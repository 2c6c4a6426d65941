"""The rule index (codemods/rules/index.json) and the run it allows: a check whose every file comes from the
cache selects rules and prints findings without importing libcst or any rule (issue 18)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from graphmend.rules import INDEX, INDEX_FILE, RULES, _discover, index_text, select_codes, select_rules

ROOT = Path(__file__).resolve().parent.parent

# records, at exit, which of the analysis' modules the run imported
PROBE = """
import atexit, json, runpy, sys

OUT = sys.argv[1]


def _report():
    heavy = sorted(m for m in sys.modules if m.split(".")[0] == "libcst" or m.startswith("graphmend.rules.gm")
                   or m in ("graphmend.engine", "graphmend.rule", "graphmend.scopes", "graphmend.values"))
    with open(OUT, "w") as out:
        json.dump(heavy, out)

atexit.register(_report)
sys.argv = ["graphmend", *sys.argv[2:]]
runpy.run_module("graphmend", run_name="__main__")
"""

CELL = """\
import numpy as np
from mindspore import nn


class Net(nn.Cell):
    def construct(self, x):
        y = np.zeros((2, 3), np.float32)
        return x.view(-1) + len(x) + y.sum()
"""


def test_index_is_written_from_the_classes():
    assert INDEX_FILE.read_text(encoding="utf-8") == index_text(), "run `make rule-index`"


def test_index_agrees_with_every_class():
    classes = _discover()
    assert list(INDEX) == list(classes)
    for code, rule in classes.items():
        info = INDEX[code]
        assert (info.CODE, info.NAME, info.DEFAULT, info.FIX, info.BREAKS) == (
            rule.CODE,
            rule.NAME,
            rule.DEFAULT,
            rule.FIX,
            rule.BREAKS,
        )
        assert RULES[code] is rule


def test_rules_is_a_mapping_of_classes():
    assert list(RULES) == list(INDEX) and len(RULES) == len(INDEX)
    assert "GM101" in RULES and "GM999" not in RULES
    assert [rule.CODE for rule in RULES.values()] == list(INDEX)
    assert [rule.CODE for rule in select_rules(["GM1"], ["GM102"])] == select_codes(["GM1"], ["GM102"])


def _check(tmp_path: Path, heavy: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "user-cache"), "NO_COLOR": "1"}
    env.pop("PYTHONSAFEPATH", None)
    probe = tmp_path / "probe.py"
    probe.write_text(PROBE, encoding="utf-8")
    command = [sys.executable, str(probe), str(heavy), "check", "--output-format", "concise", "src"]
    return subprocess.run(command, cwd=tmp_path / "project", env=env, capture_output=True, text=True, timeout=300)


def test_a_run_from_the_cache_imports_no_analysis(tmp_path):
    project = tmp_path / "project"
    (project / "src").mkdir(parents=True)
    (project / "pyproject.toml").write_text("[tool.graphmend]\n", encoding="utf-8")
    for i in range(3):
        (project / "src" / f"net{i}.py").write_text(CELL, encoding="utf-8")
    (project / "src" / "plain.py").write_text("x = 1\n", encoding="utf-8")

    cold = _check(tmp_path, tmp_path / "cold.json")
    assert cold.returncode == 1, cold.stderr
    assert "libcst" in json.loads((tmp_path / "cold.json").read_text())  # it did analyse

    warm = _check(tmp_path, tmp_path / "warm.json")
    assert (warm.returncode, warm.stdout, warm.stderr) == (cold.returncode, cold.stdout, cold.stderr)
    assert json.loads((tmp_path / "warm.json").read_text()) == []
    assert "GM101" in warm.stdout and "net2.py" in warm.stdout

    # one file changed: that one is analysed again, and the others still come from the cache
    (project / "src" / "net1.py").write_text(CELL.replace("(2, 3)", "(2, 4)"), encoding="utf-8")
    again = _check(tmp_path, tmp_path / "again.json")
    assert again.returncode == 1 and "libcst" in json.loads((tmp_path / "again.json").read_text())
