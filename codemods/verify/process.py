"""Parent side of the worker protocol: start a worker, send it jobs, survive its crashes and hangs.

A worker lives in its own process group (a new session), so a timeout or the end of the run
kills everything user code may have started. A worker that crashed or timed out is gone; the
next job starts a fresh one (MindSpore is imported once per worker, not once per job).
"""

from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

WORKER_SCRIPT = Path(__file__).with_name("worker.py")
MIN_START_TIMEOUT = 120.0  # `import mindspore` alone took up to 15 s under load (CATALOG)
STACK_WAIT = 2.0  # seconds a hung worker gets to print its stack before it is killed
_FRAME = re.compile(r'File "(.+)", line (\d+) in ')


class WorkerStartError(RuntimeError):
    """The interpreter could not bring up a worker (no MindSpore, broken environment)."""


@dataclass(frozen=True)
class Launch:
    """Everything needed to start one version's worker."""

    python: str
    config: dict
    cwd: Path  # MindSpore writes rank_0/ and analyze_fail.ir here; its parent is the run's temp dir
    user_roots: tuple[str, ...]
    timeout: float


class Runner:
    """Runs one version's jobs in order, starting a fresh worker after a crash or a hang."""

    def __init__(self, launch: Launch):
        self.launch = launch
        self.worker: Worker | None = None
        self.import_seconds: list[float] = []
        self.closed = False

    def start(self) -> None:
        if self.worker is None:
            log = self.launch.cwd / f"worker-{len(self.import_seconds) + 1}.log"
            self.worker = Worker(self.launch, log)
            self.import_seconds.append(self.worker.import_s)

    def run(self, job: dict) -> dict:
        if self.closed:
            return _failure("Stopped", "the run was stopped before this job", None)
        try:
            self.start()
        except WorkerStartError as exc:
            return _failure("Start", str(exc), None)
        reply = self.worker.run(job, self.launch.timeout)
        if self.worker.proc.poll() is not None:
            self.worker = None
        return reply

    def close(self) -> None:
        self.closed = True
        if self.worker is not None:
            self.worker.kill()  # its results are all read; nothing is lost by skipping teardown
            self.worker = None


class Worker:
    """One live worker process."""

    def __init__(self, launch: Launch, log: Path):
        self.launch = launch
        self.log = log
        with open(log, "wb") as stderr:
            self.proc = _spawn(launch, stderr)
        self._buffer = b""
        self.import_s = self._handshake(max(launch.timeout, MIN_START_TIMEOUT))

    def run(self, job: dict, timeout: float) -> dict:
        """The job's reply, or a failure verdict if the worker hung or died (it is then killed)."""
        log_offset = self.log.stat().st_size
        try:
            self._write(job)
            return json.loads(self._read_line(timeout))
        except TimeoutError:
            where = self._hang_location(log_offset)
            self.kill()
            return _failure("Timeout", f"no result after {timeout:g} s; the worker was killed", where)
        except (EOFError, BrokenPipeError):
            return self._crash_verdict(log_offset)

    def kill(self) -> None:
        """Kill the whole process group, including anything user code started."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait()
        for pipe in (self.proc.stdin, self.proc.stdout):
            pipe.close()

    # -- protocol ------------------------------------------------------------------------------

    def _handshake(self, timeout: float) -> float:
        try:
            self._write(self.launch.config)
            ready = json.loads(self._read_line(timeout))
        except (TimeoutError, EOFError, BrokenPipeError) as exc:
            self.kill()
            reason = "timed out" if isinstance(exc, TimeoutError) else "exited"
            raise WorkerStartError(
                f"the worker ({self.launch.python}) {reason} before MindSpore was ready: {self._last_line(0)}"
            ) from None
        return float(ready["import_s"])

    def _write(self, message: dict) -> None:
        self.proc.stdin.write((json.dumps(message) + "\n").encode())
        self.proc.stdin.flush()

    def _read_line(self, timeout: float) -> str:
        deadline = time.monotonic() + timeout
        fd = self.proc.stdout.fileno()
        while b"\n" not in self._buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError
            ready, _, _ = select.select([fd], [], [], remaining)
            if ready:
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    raise EOFError
                self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode()

    # -- reasons -------------------------------------------------------------------------------

    def _crash_verdict(self, log_offset: int) -> dict:
        self.kill()  # the exit status is already fixed; this reaps it and what user code started
        code = self.proc.returncode
        log = self._log_text(log_offset)
        if code < 0:
            name = signal.Signals(-code).name
            fatal = next((ln.strip() for ln in log.splitlines() if ln.startswith("Fatal Python error")), "")
            message = f"the worker crashed with {name}" + (f" ({fatal})" if fatal else "")
        else:
            message = f"the worker exited with status {code}: {self._last_line(log_offset)}"
        return _failure("Crash", message, self._user_frame(log))

    def _hang_location(self, log_offset: int) -> dict | None:
        """Ask faulthandler in the worker for its stack, and pick the user's innermost frame."""
        try:
            os.kill(self.proc.pid, signal.SIGUSR1)
        except ProcessLookupError:
            return None
        deadline = time.monotonic() + STACK_WAIT
        while "most recent call first" not in self._log_text(log_offset) and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.1)  # the dump is written in one go; let it finish
        return self._user_frame(self._log_text(log_offset))

    def _user_frame(self, log: str) -> dict | None:
        for path, line in _FRAME.findall(log):  # faulthandler lists the most recent call first
            if _under(path, self.launch.user_roots):
                return {"path": path, "line": int(line), "code": _source_line(path, int(line))}
        return None

    def _log_text(self, offset: int) -> str:
        with open(self.log, "rb") as handle:
            handle.seek(offset)
            return handle.read().decode(errors="replace")

    def _last_line(self, offset: int) -> str:
        lines = [ln.strip() for ln in self._log_text(offset).splitlines() if ln.strip()]
        plain = [ln for ln in lines if not ln.startswith("[WARNING]")]
        return (plain or lines or ["no output"])[-1]


def _spawn(launch: Launch, stderr) -> subprocess.Popen:
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")  # no __pycache__ in the user's tree
    try:
        return subprocess.Popen(
            [launch.python, str(WORKER_SCRIPT), str(os.getpid()), str(launch.cwd.parent)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            cwd=launch.cwd,
            env=env,
            start_new_session=True,  # its own process group: one kill reaches all it started
        )
    except OSError as exc:
        raise WorkerStartError(f"cannot start a worker with {launch.python}: {exc.strerror}") from None


def _failure(kind: str, message: str, where: dict | None) -> dict:
    return {"status": "fail", "stage": "", "error": {"type": kind, "message": message, "where": where}}


def _under(path: str, roots: tuple[str, ...]) -> bool:
    path = os.path.abspath(path)
    return any(path == root or path.startswith(root + os.sep) for root in roots)


def _source_line(path: str, line: int) -> str:
    try:
        return Path(path).read_text(encoding="utf-8").splitlines()[line - 1].strip()
    except (OSError, IndexError, UnicodeDecodeError):
        return ""
