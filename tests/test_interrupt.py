"""`fix` writes each file as soon as its result is final: a run stopped part-way keeps its work.

Real processes and files: the CLI runs over a few hundred files (the golden inputs, several copies of
each), is sent SIGINT (or SIGTERM) once the file system shows its first write, and what is on disk is
checked file by file. Nothing waits for a time: the test waits for facts, with a bound only a failure
reaches.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from test_attacks import _until
from test_verify import processes_with

from codemods import fix_source

GRAPHMEND = str(Path(sys.executable).parent / "graphmend")
GOLDEN = Path(__file__).resolve().parent.parent / "golden"
COPIES = 4  # 89 golden inputs x 4: a few hundred files


def _inputs() -> list[Path]:
    return sorted(p for p in GOLDEN.rglob("*.py") if not p.name.endswith(".expected.py"))


def _tree(root: Path) -> dict[Path, tuple[bytes, bytes]]:
    """The tree to fix, and for each file (its original, its complete fix)."""
    expected = {}
    for source in _inputs():
        original = source.read_bytes()
        fixed = fix_source(original, path=str(source)).output
        for copy in range(COPIES):
            path = root / f"copy{copy}" / source.parent.name / source.name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(original)
            expected[path] = (original, fixed)
    return expected


def _first_write(expected: dict[Path, tuple[bytes, bytes]]) -> bool:
    return any(path.read_bytes() != original for path, (original, _) in expected.items())


def _interrupted(tmp_path: Path, sig: signal.Signals) -> tuple[subprocess.CompletedProcess, dict, str]:
    root = tmp_path / "tree"
    expected = _tree(root)
    assert sum(original != fixed for original, fixed in expected.values()) > 100
    token = f"graphmend-stop-{os.getpid()}-{sig.name}"
    env = {**os.environ, "GRAPHMEND_TEST_TOKEN": token, "NO_COLOR": "1", "COLUMNS": "300"}
    cli = subprocess.Popen([GRAPHMEND, "fix", "--no-cache", "-j", "2", "."], cwd=root, env=env, text=True,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
    try:
        _until(lambda: _first_write(expected), "the first file to be written")
        cli.send_signal(sig)
        stdout, stderr = cli.communicate(timeout=900)
    finally:
        cli.kill()
    return subprocess.CompletedProcess(cli.args, cli.returncode, stdout, stderr), expected, token


def test_sigint_keeps_every_file_written_and_a_second_fix_completes_the_rest(tmp_path: Path) -> None:
    done, expected, token = _interrupted(tmp_path, signal.SIGINT)
    assert done.returncode == 130, done.stderr
    assert "Traceback" not in done.stderr
    # every file is its original or its complete fix, never half
    states = {path: path.read_bytes() for path in expected}
    for path, (original, fixed) in expected.items():
        assert states[path] in (original, fixed), path
    written = [p for p, (original, _) in expected.items() if states[p] != original]
    assert written
    summary = re.search(r"Fixed (\d+) finding\(s\) in (\d+) file\(s\); \d+ remaining; stopped with (\d+) file\(s\) "
                        r"not checked — run again to continue\.", done.stderr)  # fmt: skip
    assert summary, done.stderr
    assert int(summary[2]) == len(written)
    assert 0 < int(summary[3]) < len(expected)
    assert [p for p in (tmp_path / "tree").rglob("*") if p.name.endswith(".graphmend")] == []
    _until(lambda: processes_with(token) == [], "every worker to end")

    # the rest, in a second run, gives what one uninterrupted run gives
    again = subprocess.run([GRAPHMEND, "fix", "--no-cache", "-j", "2", "."], cwd=tmp_path / "tree",
                           capture_output=True, text=True, timeout=900)  # fmt: skip
    assert again.returncode in (0, 1), again.stderr
    for path, (_, fixed) in expected.items():
        assert path.read_bytes() == fixed, path
    whole = tmp_path / "whole"
    shutil.copytree(tmp_path / "tree", whole)
    for path, (original, _) in expected.items():
        (whole / path.relative_to(tmp_path / "tree")).write_bytes(original)
    subprocess.run([GRAPHMEND, "fix", "--no-cache", "-j", "2", "."], cwd=whole, capture_output=True, timeout=900)
    for path in expected:
        assert (whole / path.relative_to(tmp_path / "tree")).read_bytes() == path.read_bytes()


@pytest.mark.parametrize("sig", [signal.SIGTERM], ids=["SIGTERM"])
def test_sigterm_stops_as_cleanly_with_exit_143(tmp_path: Path, sig: signal.Signals) -> None:
    done, expected, token = _interrupted(tmp_path, sig)
    assert done.returncode == 128 + sig, done.stderr
    for path, (original, fixed) in expected.items():
        assert path.read_bytes() in (original, fixed), path
    assert "stopped with" in done.stderr and "Traceback" not in done.stderr
    _until(lambda: processes_with(token) == [], "every worker to end")


def test_diff_still_writes_nothing(tmp_path: Path) -> None:
    root = tmp_path / "tree"
    expected = _tree(root)
    done = subprocess.run([GRAPHMEND, "fix", "--diff", "--no-cache", "-j", "2", "copy0"], cwd=root,
                          capture_output=True, text=True, timeout=900)  # fmt: skip
    assert done.returncode == 1 and done.stdout.startswith("--- a/")
    assert all(path.read_bytes() == original for path, (original, _) in expected.items())
