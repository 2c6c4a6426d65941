"""`fix` writes each file as soon as its result is final: a run stopped part-way keeps its work.

Real processes and real code: the CLI runs over the sources of three public MindSpore packages of the
corpus (bench/corpus.py: pinned wheels, sha256-checked, 153 files of which 7 get fixes), is sent SIGINT
(or SIGTERM) once the file system shows its first write, and what is on disk is checked file by file
against an uninterrupted run. Nothing waits for a time: the test waits for facts, with a bound only a
failure reaches.
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import signal
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from test_attacks import _until
from test_verify import processes_with

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))

import corpus  # noqa: E402

GRAPHMEND = str(Path(sys.executable).parent / "graphmend")
# sorted by path, mindaudio's first fixable file comes after ~30 others and ~120 follow it: a signal sent
# at the first write always finds files not checked yet (mindcv, 109 more files and 1.1 MB, would only
# make each run longer)
PACKAGES = ("mindaudio", "mindyolo")


@pytest.fixture(scope="session")
def wheels() -> list[Path]:
    """The pinned wheels, downloaded once into bench/corpus/wheels/ (git-ignored, shared with `make bench`)."""
    corpus.WHEELS.mkdir(parents=True, exist_ok=True)
    with open(corpus.WHEELS / ".lock", "w") as lock:  # xdist workers download one at a time
        fcntl.flock(lock, fcntl.LOCK_EX)
        return [corpus.download(name, *corpus.PACKAGES[name]) for name in PACKAGES]


def _fix(root: Path, *flags: str) -> subprocess.CompletedProcess:
    return subprocess.run([GRAPHMEND, "fix", "--no-cache", "-j", "2", *flags, "."], cwd=root,
                          capture_output=True, text=True, timeout=1800)  # fmt: skip


def _sources(wheels: list[Path]) -> list[tuple[Path, bytes]]:
    """Every .py file of the wheels: its path in the tree, its bytes."""
    found = []
    for wheel in wheels:
        with zipfile.ZipFile(wheel) as archive:
            found += [(Path(m), archive.read(m)) for m in archive.namelist() if m.endswith(".py")]
    return found


def _unpack(wheels: list[Path], root: Path) -> None:
    for relative, data in _sources(wheels):
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_bytes(data)


@pytest.fixture(scope="session")
def uninterrupted(wheels, tmp_path_factory) -> dict[Path, tuple[bytes, bytes]]:
    """Each file's path in the package tree, its original and what one uninterrupted `fix` makes of it.

    Computed once per session: under xdist the first worker runs it in the directory the workers share
    and the others wait for it and read it."""
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_TESTRUNUID"):
        shared = shared.parent
    whole, done_mark = shared / "uninterrupted", shared / "uninterrupted.done"
    with open(shared / "uninterrupted.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done_mark.exists():
            shutil.rmtree(whole, ignore_errors=True)
            _unpack(wheels, whole)
            done = _fix(whole)
            assert done.returncode in (0, 1) and "Traceback" not in done.stderr, done.stderr
            done_mark.touch()
    return {relative: (original, (whole / relative).read_bytes()) for relative, original in _sources(wheels)}


def _tree(wheels, uninterrupted, root: Path) -> dict[Path, tuple[bytes, bytes]]:
    """The tree to fix, and for each of its files (its original, its complete fix)."""
    _unpack(wheels, root)
    return {root / relative: states for relative, states in uninterrupted.items()}


def _first_write(expected: dict[Path, tuple[bytes, bytes]]) -> bool:
    return any(path.read_bytes() != original for path, (original, _) in expected.items())


def _interrupted(wheels, uninterrupted, tmp_path: Path, sig: signal.Signals) -> tuple:
    root = tmp_path / "tree"
    expected = _tree(wheels, uninterrupted, root)
    assert len(expected) > 150 and sum(original != fixed for original, fixed in expected.values()) >= 7
    token = f"graphmend-stop-{os.getpid()}-{sig.name}"
    env = {**os.environ, "GRAPHMEND_TEST_TOKEN": token, "NO_COLOR": "1", "COLUMNS": "300"}
    cli = subprocess.Popen([GRAPHMEND, "fix", "--no-cache", "-j", "2", "."], cwd=root, env=env, text=True,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
    try:
        _until(lambda: _first_write(expected), "the first file to be written", bound=900)
        cli.send_signal(sig)
        stdout, stderr = cli.communicate(timeout=900)
    finally:
        cli.kill()
    return subprocess.CompletedProcess(cli.args, cli.returncode, stdout, stderr), expected, token


def test_sigint_keeps_every_file_written_and_a_second_fix_completes_the_rest(wheels, uninterrupted, tmp_path) -> None:
    done, expected, token = _interrupted(wheels, uninterrupted, tmp_path, signal.SIGINT)
    assert done.returncode == 130, done.stderr
    assert "Traceback" not in done.stderr
    # every file is its original or its complete fix, never half
    states = {path: path.read_bytes() for path in expected}
    for path, (original, fixed) in expected.items():
        assert states[path] in (original, fixed), path
    written = [p for p, (original, _) in expected.items() if states[p] != original]
    assert written
    summary = re.search(r"Fixed (\d+) finding\(s\) in (\d+) file\(s\); \d+ remaining(?: \([^)]*\))?; "
                        r"stopped with (\d+) file\(s\) not checked — run again to continue\.", done.stderr)  # fmt: skip
    assert summary, done.stderr
    assert int(summary[2]) == len(written)
    assert 0 < int(summary[3]) < len(expected)
    assert [p for p in (tmp_path / "tree").rglob("*") if p.name.endswith(".graphmend")] == []
    _until(lambda: processes_with(token) == [], "every worker to end")

    # the rest, in a second run, gives what one uninterrupted run gives, file for file
    again = _fix(tmp_path / "tree")
    assert again.returncode in (0, 1) and "Traceback" not in again.stderr, again.stderr
    assert [path for path, (_, fixed) in expected.items() if path.read_bytes() != fixed] == []


@pytest.mark.parametrize("sig", [signal.SIGTERM], ids=["SIGTERM"])
def test_sigterm_stops_as_cleanly_with_exit_143(wheels, uninterrupted, tmp_path, sig: signal.Signals) -> None:
    done, expected, token = _interrupted(wheels, uninterrupted, tmp_path, sig)
    assert done.returncode == 128 + sig, done.stderr
    for path, (original, fixed) in expected.items():
        assert path.read_bytes() in (original, fixed), path
    assert "stopped with" in done.stderr and "Traceback" not in done.stderr
    _until(lambda: processes_with(token) == [], "every worker to end")


def test_diff_still_writes_nothing(wheels, uninterrupted, tmp_path: Path) -> None:
    root = tmp_path / "tree"
    expected = _tree(wheels, uninterrupted, root)
    done = _fix(root / "mindyolo" / "models" / "losses", "--diff")  # 5 of its 13 files get fixes
    assert done.returncode == 1 and done.stdout.startswith("--- a/"), done.stderr
    assert "+++ b/yolov3_loss.py" in done.stdout
    assert all(path.read_bytes() == original for path, (original, _) in expected.items())
