"""No process that user code starts outlives `graphmend verify`, however it leaves the worker's group.

Every build of the Cells in tests/verify_cases/orphans*.py starts `sleep` in a session of its own and a
double-forked, setsid'ed daemon with an empty environment (orphans_spawn.py). Real MindSpore, no mocks:
the workers end as they do in real runs (closed at the end, crashed, or left by a killed graphmend), and
afterwards no process carries the test's token. Run from a long-lived host, verify leaves that host's own
children alone.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
import time
import uuid
from pathlib import Path

import pytest
from test_verify import CASES, GRAPHMEND, graphmend, processes_with, verdict

ARGS = ("--input", "float32[2,3]", "--checks", "graph", "--format", "json")


class Project:
    """A copy of the cases, an environment that tags every process of the run, and the record of spawns."""

    def __init__(self, tmp_path: Path):
        self.root, self.record = tmp_path / "project", tmp_path / "spawned.txt"
        self.root.mkdir()
        for name in ("orphans.py", "orphans_fixed.py", "orphans_spawn.py"):
            shutil.copy(CASES / name, self.root / name)
        self.token = uuid.uuid4().hex
        self.env = dict(os.environ, GRAPHMEND_TEST_TOKEN=self.token, GRAPHMEND_TEST_SPAWNED=str(self.record))

    def started(self) -> dict[str, int]:
        """How many builds started their two processes, by worker directory (work-before, work-after)."""
        counts: dict[str, int] = {}
        text = self.record.read_text() if self.record.exists() else ""
        for line in text.split("\n")[:-1]:  # whole lines only: a build may be writing its own
            where, *pids = line.split()
            assert len(pids) == 2, line
            counts[where] = counts.get(where, 0) + 1
        return counts


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return Project(tmp_path)


def run(project: Project, target: str, against: str) -> dict:
    done = graphmend(target, "--against", against, *ARGS, cwd=project.root, env=project.env)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return json.loads(done.stdout)


def test_what_a_cell_detaches_is_killed_when_its_workers_are_closed(project):
    report = run(project, "orphans.py:Escapes", "orphans.py")
    assert report["notes"] == ["the two versions are the same source"]
    assert verdict(report, "graph", "after")["passed"]
    assert set(project.started()) == {"work-before", "work-after"}  # both workers, both kinds of escape
    assert processes_with(project.token) == []


def test_what_a_cell_detaches_is_killed_when_its_worker_crashes(project):
    report = run(project, "orphans.py:Crashes", "orphans_fixed.py")
    ((version, failure),) = report["reference"]["failures"]
    assert (version, failure["kind"]) == ("before", "Crash")
    assert failure["message"].startswith("the worker crashed with SIGABRT")
    assert verdict(report, "graph", "before")["failure"]["kind"] == "Crash"  # a second worker, crashed too
    assert verdict(report, "graph", "after")["passed"]
    assert project.started()["work-before"] == 2  # one build in each worker that crashed
    assert processes_with(project.token) == []


def test_what_a_cell_detaches_is_killed_when_graphmend_itself_is_killed(project, tmp_path):
    temp = tmp_path / "tmp"
    temp.mkdir()
    args = ["verify", "orphans.py:Hangs", "--against", "orphans.py", "--input", "float32[2,3]", "--checks", "graph"]
    env = dict(project.env, TMPDIR=str(temp))
    cli = subprocess.Popen([str(GRAPHMEND), *args], cwd=project.root, env=env, stdout=subprocess.DEVNULL)
    try:
        # A build has detached its two processes once it is recorded; its job then spins. Both workers
        # build the Cell (the rewritten version's makes its own PyNative run beside the reference), in an
        # order the scheduler decides: whichever is recorded first is enough, and neither builds twice.
        # The deadlines only bound a failure: a loaded machine may take minutes to get there.
        deadline = time.monotonic() + 300
        while not project.started() and time.monotonic() < deadline:
            assert cli.poll() is None
            time.sleep(0.2)
        started = project.started()
        assert cli.poll() is None and started, "no build started"
        assert set(started) <= {"work-before", "work-after"} and set(started.values()) == {1}, started
    finally:
        cli.kill()  # no chance to clean up: the keepers must notice on their own
        cli.wait()
    deadline = time.monotonic() + 120
    while processes_with(project.token) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert processes_with(project.token) == []
    assert not list(temp.glob("graphmend-verify-*"))  # the keepers removed the run's files


HOST = """
    import subprocess
    from pathlib import Path

    from graphmend.verify import verify

    alive = subprocess.Popen(["sleep", "300"], start_new_session=True)  # the host's own, in a session of its own
    exited = subprocess.Popen(["sh", "-c", "exit 7"])  # the host's own: only the host may reap it
    try:
        report = verify(Path("orphans.py"), Path("orphans.py").read_text(), "Escapes", {}, ["float32[2,3]"],
                        checks=["graph"])
        print(report.passed, alive.poll(), exited.wait())
    finally:
        alive.kill()
        alive.wait()
"""


def test_a_long_lived_host_keeps_its_own_children(project):
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(HOST)],
        cwd=project.root,
        env=project.env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == ["True", "None", "7"]  # passed; still running; its status unread by verify
    assert set(project.started()) == {"work-before", "work-after"}
    assert processes_with(project.token) == []
