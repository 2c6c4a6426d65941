"""Fixtures shared by the verifier tests; the artifacts a run leaves for a reviewer, named at its end."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from graphmend.verify import Verifier


@pytest.fixture(scope="session")
def verifier() -> Iterator[Verifier]:
    """One pair of verify workers per test process, for every verifier test module: MindSpore is imported
    once per version and xdist worker (again only after a crash, a hang or a kill), not once per Cell."""
    with Verifier() as shared:
        yield shared


ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
_STARTED = time.time()


def pytest_terminal_summary(terminalreporter) -> None:
    """Name what the run left for a reviewer to open (tests/test_report.py's screenshot of the report)."""
    written = sorted(p for p in ARTIFACTS.glob("*") if p.stat().st_mtime >= _STARTED) if ARTIFACTS.is_dir() else []
    if written:
        terminalreporter.write_sep("-", "artifacts of this run")
        for path in written:
            terminalreporter.write_line(str(path))
