"""`graphmend run --graph --fix` on a small project written for PyNative, with three graph-mode errors
that surface one at a time (MindSpore stops at the first): three rounds, then the script runs."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

GRAPHMEND = str(Path(sys.executable).with_name("graphmend"))
PROJECT = Path(__file__).parent / "explain_cases" / "three_errors"


def test_run_graph_fix_takes_three_rounds_to_compile(tmp_path):
    project = tmp_path / "project"
    shutil.copytree(PROJECT, project)
    outside = tmp_path / "outside.py"  # not under --root: never edited
    outside.write_text((PROJECT / "blocks.py").read_text())
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200"}
    done = subprocess.run([GRAPHMEND, "run", "--graph", "--fix", "-q", "--", sys.executable, "train.py"],
                          cwd=project, capture_output=True, text=True, env=env, timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("│ ")]
    assert [row.split("│")[3].strip() for row in rows] == ["GM201", "GM203", "GM303"]
    assert [row.split("│")[4].strip() for row in rows] == ["model.py:20", "blocks.py:9", "model.py:18"]
    assert all(row.split("│")[5].strip() == "yes" for row in rows)
    assert "run 4: the command exited 0" in done.stdout
    model = (project / "model.py").read_text()
    assert "ops.assign(self.limit, self.limit + 0.25)" in model and "int(round(self.rate * c))" in model
    assert "nn.CellList([" in (project / "blocks.py").read_text()
    assert "+        self.layers = nn.CellList(" in done.stdout  # the whole diff at the end
    assert outside.read_text() == (PROJECT / "blocks.py").read_text()
    # without the hook the script runs in PyNative, as it did before any fix
    pristine = shutil.copytree(PROJECT, tmp_path / "pristine")
    plain = subprocess.run([sys.executable, "train.py"], cwd=pristine, capture_output=True, text=True, timeout=300)
    assert plain.returncode == 0 and plain.stdout.startswith("ok"), plain.stderr


def test_run_without_fix_explains_and_edits_nothing(tmp_path):
    project = tmp_path / "project"
    shutil.copytree(PROJECT, project)
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200"}
    done = subprocess.run([GRAPHMEND, "run", "--graph", "-q", "--", sys.executable, "train.py"], cwd=project,
                          capture_output=True, text=True, env=env, timeout=600)  # fmt: skip
    assert done.returncode == 1
    assert "model.py:20:9: GM201 [*]" in done.stdout
    assert "run with --fix" in done.stdout
    assert (project / "model.py").read_text() == (PROJECT / "model.py").read_text()


def test_run_edits_nothing_outside_the_root(tmp_path):
    """blocks.py is imported from outside the root (a library of the user's): its error is explained, not
    fixed, and the run stops there."""
    app, lib = tmp_path / "app", tmp_path / "lib"
    app.mkdir(), lib.mkdir()
    for name in ("model.py", "train.py"):
        shutil.copy(PROJECT / name, app / name)
    shutil.copy(PROJECT / "blocks.py", lib / "blocks.py")
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200", "PYTHONPATH": str(lib)}
    done = subprocess.run([GRAPHMEND, "run", "--graph", "--fix", "-q", "--", sys.executable, "train.py"], cwd=app,
                          capture_output=True, text=True, env=env, timeout=600)  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("│ ")]
    assert [row.split("│")[3].strip() for row in rows] == ["GM201", "GM203"]
    assert [row.split("│")[5].strip() for row in rows] == ["yes", "no"]
    assert f"{lib / 'blocks.py'}: outside" in done.stdout
    assert (lib / "blocks.py").read_text() == (PROJECT / "blocks.py").read_text()


def test_run_strict_holds_strict_syntax_even_when_the_script_asks_for_pynative(tmp_path):
    project = tmp_path / "project"
    shutil.copytree(PROJECT, project)
    (project / "pynative.py").write_text("import mindspore as ms\n\nms.set_context(mode=ms.PYNATIVE_MODE)\n"
                                         "exec(open('train.py').read())\n")  # fmt: skip
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200"}
    done = subprocess.run([GRAPHMEND, "run", "--strict", "-q", "--", sys.executable, "pynative.py"], cwd=project,
                          capture_output=True, text=True, env=env, timeout=600)  # fmt: skip
    assert done.returncode == 1
    assert "AttributeError: In JIT strict mode, cannot get attributes set_data" in done.stdout
    assert "model.py:20:9: GM201 [*]" in done.stdout
