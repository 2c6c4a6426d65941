"""What a ruff user expects of the command line (issue 16): findings that stream on long runs with a
progress line for logs, ruff's option names, readable output, ruff's selection rules, single-key review.

Every test runs the installed `graphmend` on real files, in a subprocess (on a pseudo-terminal where a
terminal matters)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from test_cli import FIXED, GRAPHMEND, HOSTILE, _on_a_terminal

# a Cell with a finding `fix` cannot fix (GM202) and one it can (GM201)
MANUAL = HOSTILE.replace("mask = ms.Tensor(np.ones((x.shape[0], 4)), ms.float32)", "self.count = x\n        mask = x")


def gm(*args: str, cwd: Path, stdin: str | None = None, merged: bool = False, **env: str):
    """graphmend in a subprocess; `merged`: stderr into the same pipe as stdout, to see the order of both."""
    environment = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200", **env}
    return subprocess.run([GRAPHMEND, *args], cwd=cwd, input=stdin, text=True, env=environment, timeout=900,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT if merged else subprocess.PIPE)  # fmt: skip


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    for i in range(3):
        (tmp_path / f"m{i}.py").write_text(HOSTILE)
    (tmp_path / "n.py").write_text(MANUAL)
    return tmp_path


# -- item 1: findings stream, progress off a terminal ------------------------------------------------


def test_check_streams_findings_file_by_file_between_progress_lines(tree: Path) -> None:
    done = gm("check", ".", "--jobs", "1", "--no-cache", cwd=tree, merged=True, GRAPHMEND_PROGRESS_INTERVAL="0")
    assert done.returncode == 1, done.stdout
    shape = [line.split(":")[0] if not line.startswith("graphmend:") else line for line in done.stdout.splitlines()]
    # each file's findings are out before the next file is done: they stream, they do not wait for the end
    assert shape[:12] == ["m0.py", "m0.py", "graphmend: 1/4 files, 2 findings",
                          "m1.py", "m1.py", "graphmend: 2/4 files, 4 findings",
                          "m2.py", "m2.py", "graphmend: 3/4 files, 6 findings",
                          "n.py", "n.py", "graphmend: 4/4 files, 8 findings"]  # fmt: skip


def test_streamed_output_is_sorted_whatever_order_workers_finish_in(tree: Path) -> None:
    for i in range(3, 12):
        (tree / f"m{i:02}.py").write_text(HOSTILE)
    one = gm("check", ".", "--jobs", "1", "--no-cache", cwd=tree, GRAPHMEND_PROGRESS_INTERVAL="0")
    two = gm("check", ".", "--jobs", "2", "--no-cache", cwd=tree, GRAPHMEND_PROGRESS_INTERVAL="0")
    paths = [line.split(":")[0] for line in one.stdout.splitlines()]
    assert one.stdout == two.stdout and paths == sorted(paths) and len(paths) == 26
    assert two.stderr.count("graphmend: ") == 13  # a line a file, whatever order they came in


def test_fix_prints_what_each_file_has_left_as_it_is_written(tree: Path) -> None:
    done = gm("fix", ".", "--jobs", "1", "--no-cache", cwd=tree, merged=True, GRAPHMEND_PROGRESS_INTERVAL="0")
    lines = done.stdout.splitlines()
    assert lines[3].startswith("n.py:8:9: GM202 ") and lines[4] == "graphmend: 4/4 files, 8 findings", lines
    assert lines[:3] == [f"graphmend: {i}/4 files, {2 * i} findings" for i in (1, 2, 3)]
    assert (tree / "m0.py").read_text() == FIXED and done.returncode == 1


def test_no_progress_line_before_the_interval_and_none_when_quiet(tree: Path) -> None:
    slow = gm("check", ".", "--no-cache", cwd=tree, GRAPHMEND_PROGRESS_INTERVAL="100000")
    assert "graphmend: " not in slow.stderr
    quiet = gm("check", ".", "--no-cache", "-q", cwd=tree, GRAPHMEND_PROGRESS_INTERVAL="0")
    assert quiet.stderr == ""


def test_the_terminal_bar_has_a_steady_eta(tree: Path) -> None:
    screen = _on_a_terminal(tree, "check", ".", "--no-cache", "--jobs", "1")
    assert "/4 files" in screen and "eta " in screen
