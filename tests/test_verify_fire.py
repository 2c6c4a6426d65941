"""The verifier under fire: user code that hoards memory, prints megabytes, aborts or never returns.

Each check fails with its reason, the tool exits normally, no process is left behind, and
nothing is written into the user's tree (a copy of tests/verify_cases/under_fire*.py) or left
in the temp directory. Real MindSpore, no mocks: two CLI runs, four workers each.
"""

from __future__ import annotations

import json
import os
import shutil
import uuid
from pathlib import Path

import pytest
from test_verify import CASES, graphmend, processes_with, tree, verdict

ORIGINAL, REWRITTEN = "under_fire.py", "under_fire_rewritten.py"


@pytest.fixture
def project(tmp_path: Path):
    """The user's tree, and an environment whose processes can be found and whose temp dir is ours."""
    root, temp = tmp_path / "project", tmp_path / "tmp"
    root.mkdir()
    temp.mkdir()
    for name in (ORIGINAL, REWRITTEN):
        shutil.copy(CASES / name, root / name)
    token = uuid.uuid4().hex
    env = dict(os.environ, GRAPHMEND_TEST_TOKEN=token, TMPDIR=str(temp))
    before = tree(root)
    yield root, env
    assert processes_with(token) == []  # no worker, nothing user code started
    assert tree(root) == before  # no __pycache__, rank_0/, *.mindir, kernel_meta/
    assert list(temp.iterdir()) == []  # the run's temp directory is gone


def test_a_memory_hog_is_killed_and_megabytes_of_output_stay_out_of_the_way(project):
    root, env = project
    args = ["--input", "float32[2,3]", "--checks", "graph", "--memory-limit", "1.5", "--format", "json"]
    done = graphmend(f"{ORIGINAL}:Hoard", "--against", REWRITTEN, *args, cwd=root, env=env)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert len(done.stdout) < 20_000 and "xxxx" not in done.stdout + done.stderr  # tens of MB printed, none here
    report = json.loads(done.stdout)

    ((version, failure),) = report["reference"]["failures"]
    assert (version, failure["kind"]) == ("before", "Memory")
    assert failure["message"].startswith("killed: memory over 1.5 GB (")
    assert failure["where"] == {
        "path": ORIGINAL,
        "line": 15,
        "code": "hoard.append(np.ones(1 << 24))  # 128 MB a turn",
    }
    # the next job runs in a fresh worker; GRAPH_MODE evaluates the loop while compiling
    message = verdict(report, "graph", "before")["failure"]["message"]
    assert message.startswith("killed: memory over 1.5 GB while MindSpore compiled the Cell (")

    # 10 MB from __init__ and from each call, plus a fake reply on fd 1: the protocol holds
    assert report["reference"]["version"] == "after"
    loud = verdict(report, "graph", "after")
    assert loud["passed"] and loud["max_abs"] == 0.0
    assert {c["name"] for c in loud["comparisons"]} == {"call 1 out", "call 2 out"}
    assert loud["note"] == "printed 30.0 MB (not shown)"
    assert len(report["timings"]["import_s"]) == 3  # the hoarder's worker was started twice


def test_an_abort_and_a_hang_end_in_a_table_and_exit_1(project):
    root, env = project
    args = ["--input", "float32[2,3]", "--checks", "graph", "--timeout", "10"]
    done = graphmend(f"{ORIGINAL}:Abort", "--against", REWRITTEN, *args, cwd=root, env=env)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    lines = [line.strip() for line in done.stdout.splitlines()]
    assert (
        "the original fails in PyNative: Crash: the worker crashed with SIGABRT "
        f"(Fatal Python error: Aborted) [{ORIGINAL}:21: os.abort()]"
    ) in lines
    # the kill lands on either line of the loop, each quoted with its own code
    hang = "the rewritten version fails in PyNative: Timeout: no result after 10 s; the worker was killed "
    assert any(f"{hang}[{REWRITTEN}:{line}]" in lines for line in ("23: while x.shape[0] > 0:", "24: x = x + 0"))
    assert "no version runs in PyNative: there is nothing to compare with" in lines
    assert any(line.startswith("│ graph   │ before  │ ✗ fail") for line in lines)
    assert any(line.startswith("│         │ after   │ ✗ fail") for line in lines)
    assert lines[-1] == "FAIL: failing after: graph"
