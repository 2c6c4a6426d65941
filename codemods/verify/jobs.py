"""The order of work: one worker per version, the PyNative reference first, then the checks.

The two versions run side by side, one worker each, and each starts with its own PyNative run.
The original's is the reference; if it fails (a half-done PyTorch port), the rewritten
version's takes its place. The rewritten version's run is made even when it is not needed: it
costs its worker no time (the worker would wait for the reference anyway) and warms it up —
measured on mindcv's coat_lite_tiny (MindSpore 2.10 CPU), a PyNative forward pass first makes
each later graph compile of the model about 1 s faster (4.9 s instead of 5.9 s). The checks of
both versions wait for the reference and then compare with it.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from .process import Runner
from .report import VERSIONS


@dataclass(frozen=True)
class Plan:
    checks: tuple[str, ...]

    def sizes(self, check: str) -> list[int]:
        """How much each call adds to every named dimension: two equal calls, then a larger one."""
        return [0, 0, 1] if check == "dynamic" else [0, 0]

    @property
    def reference_sizes(self) -> list[int]:
        return self.sizes("dynamic") if "dynamic" in self.checks else self.sizes("graph")


@dataclass(frozen=True)
class Outcome:
    """Raw worker replies: the reference attempts, and every check of both versions."""

    references: dict[str, dict]  # version -> reply of its PyNative run, in the order tried
    reference_version: str | None
    checks: dict[tuple[str, str], dict]  # (check, version) -> reply


def execute(plan: Plan, runners: dict[str, Runner], data: Path) -> Outcome:
    """Run everything; both workers import MindSpore at the same time."""
    with ThreadPoolExecutor(len(VERSIONS)) as pool:
        try:
            list(pool.map(Runner.start, runners.values()))  # a failed start raises WorkerStartError
            board = _Board(data)
            drives = {v: pool.submit(_drive, v, runners[v], plan, board) for v in VERSIONS}
            replies = {v: f.result() for v, f in drives.items()}
        except BaseException:
            for runner in runners.values():  # Ctrl-C: stop the workers now, not after their timeouts
                runner.close()
            raise
    checks = {(c, v): reply for v, got in replies.items() for c, reply in zip(plan.checks, got, strict=True)}
    return Outcome(board.attempts(), board.chosen(), checks)


def _drive(version: str, runner: Runner, plan: Plan, board: _Board) -> list[dict]:
    reply = {"status": "fail", "stage": "verifier", "error": None}
    try:
        reply = runner.run(board.reference_job(version, plan))
    finally:
        board.post(version, reply)  # even on a verifier bug: the other version waits for it
    reference, params = board.settle()
    return [runner.run(_check_job(check, version, plan, reference, params, board.data)) for check in plan.checks]


def _check_job(check: str, version: str, plan: Plan, reference: Path | None, params: Path | None, data: Path):
    return {
        "op": "check",
        "check": check,
        "sizes": plan.sizes(check),
        "reference_in": str(reference) if reference else None,
        "params_in": str(params) if params else None,
        "export_to": str(data / f"export-{version}"),
    }


class _Board:
    """Who makes the reference: the original; the rewritten version only if the original fails."""

    def __init__(self, data: Path):
        self.data = data
        self.replies: dict[str, dict] = {}
        self._changed = threading.Condition()

    def post(self, version: str, reply: dict) -> None:
        with self._changed:
            self.replies[version] = reply
            self._changed.notify_all()

    def settle(self) -> tuple[Path | None, Path | None]:
        """The reference file to compare with, and the starting Parameters to build with."""
        with self._changed:
            self._changed.wait_for(self._settled)
        chosen = self.chosen()
        params = next((p for v in VERSIONS if (p := self._file("params", v)).is_file()), None)
        return (self._file("reference", chosen) if chosen else None), params

    def chosen(self) -> str | None:
        return next((v for v in VERSIONS if self.replies.get(v, {}).get("status") == "pass"), None)

    def attempts(self) -> dict[str, dict]:
        """The PyNative runs tried as the reference: the original's, and the rewritten version's
        only if the original's failed (otherwise it only warmed its worker up)."""
        first = self.replies[VERSIONS[0]]
        return {VERSIONS[0]: first} if first["status"] == "pass" else dict(self.replies)

    def reference_job(self, version: str, plan: Plan) -> dict:
        return {
            "op": "reference",
            "sizes": plan.reference_sizes,
            "reference_out": str(self._file("reference", version)),
            "params_out": str(self._file("params", version)),
        }

    def _settled(self) -> bool:
        first = self.replies.get(VERSIONS[0])
        return first is not None and (first["status"] == "pass" or VERSIONS[1] in self.replies)

    def _file(self, kind: str, version: str) -> Path:
        return self.data / f"{kind}-{version}.pkl"
