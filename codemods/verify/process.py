"""Parent side of the worker protocol: start a worker, send it jobs, survive what user code does.

A worker lives in its own process group (a new session), so a timeout, a memory overrun or the
end of the run kills everything user code may have started. A worker that crashed, hung or was
killed is gone; the next job starts a fresh one (MindSpore is imported once per worker, not once
per job).

Each worker has three channels, so that nothing user code does can corrupt the protocol, stall
it, or flood the user's terminal or disk:
- protocol: one JSON line per message, on the worker's original stdin and stdout, which the
  worker moves to private file descriptors before it imports anything;
- output: the worker's fd 1 and fd 2 (user prints, MindSpore's logs) share one pipe that the
  parent drains while it waits for a reply, keeping the first and last KEPT bytes of each job;
- stacks: faulthandler writes to a file of its own, read after a crash, a hang or a memory kill.

While it waits, the parent also reads the worker's resident memory every POLL seconds (from
/proc; without /proc there is no limit) and kills the worker when it passes the limit.
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
STACK_WAIT = 2.0  # seconds a hung worker gets to write its stack before it is killed
MEMORY_STACK_WAIT = 0.5  # shorter: its memory may still be growing
POLL = 0.1  # seconds between two readings of a worker's memory
KEPT = 64 * 1024  # bytes of a job's output kept from its start, and again from its end
DRAIN_WAIT = 1.0  # seconds to collect the last output of a killed worker
PAGE = os.sysconf("SC_PAGE_SIZE")
_FRAME = re.compile(r'File "(.+)", line (\d+) in (\S+)')
_COMPILING = re.compile(r'mindspore[/\\](?:graph|common)[/\\]api\.py", line \d+ in compile$', re.MULTILINE)


class WorkerStartError(RuntimeError):
    """The interpreter could not bring up a worker (no MindSpore, broken environment)."""


class MemoryExceeded(Exception):
    def __init__(self, resident: int):
        super().__init__(resident)
        self.resident = resident


@dataclass(frozen=True)
class Launch:
    """Everything needed to start one version's worker."""

    python: str
    config: dict
    cwd: Path  # MindSpore writes rank_0/ and analyze_fail.ir here; its parent is the run's temp dir
    user_roots: tuple[str, ...]
    timeout: float
    memory_limit: int | None = None  # bytes of resident memory; None: no limit


def default_memory_limit() -> int:
    """A quarter of the machine's memory: the two workers of a run together stay under half."""
    return os.sysconf("SC_PHYS_PAGES") * PAGE // 4


def gigabytes(size: int) -> str:
    return f"{size / 1e9:.3g} GB"


class Runner:
    """Runs one version's jobs in order, starting a fresh worker after a crash, a hang or a kill."""

    def __init__(self, launch: Launch):
        self.launch = launch
        self.worker: Worker | None = None
        self.import_seconds: list[float] = []
        self.closed = False

    def start(self) -> None:
        if self.worker is None:
            stacks = self.launch.cwd / f"stacks-{len(self.import_seconds) + 1}.txt"
            self.worker = Worker(self.launch, stacks)
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

    def __init__(self, launch: Launch, stacks: Path):
        self.launch = launch
        self.stacks = stacks
        self.proc = _spawn(launch, stacks)
        self.output = Output()
        self.memory = MemoryWatch(self.proc.pid, launch.memory_limit)
        self._buffer = b""
        self._output_open = True
        self.import_s = self._handshake(max(launch.timeout, MIN_START_TIMEOUT))

    def run(self, job: dict, timeout: float) -> dict:
        """The job's reply, or a failure verdict if the worker hung, died or was killed.

        Every reply says how many bytes the worker printed while it ran the job.
        """
        self.output = Output()
        try:
            self._write(job)
            reply = json.loads(self._read_line(timeout))
        except TimeoutError:
            stacks = self._dump_stacks(STACK_WAIT)
            self.kill()
            message = f"no result after {timeout:g} s{_compiling(stacks)}; the worker was killed"
            reply = _failure("Timeout", message, self._user_frame(stacks))
        except MemoryExceeded as exc:
            stacks = self._dump_stacks(MEMORY_STACK_WAIT)
            self.kill()
            reply = _failure("Memory", self._memory_message(exc, _compiling(stacks)), self._user_frame(stacks))
        except (EOFError, BrokenPipeError):
            reply = self._crash_verdict()
        return reply | {"printed": self.output.size}

    def kill(self) -> None:
        """Kill the whole process group, including anything user code started."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait()
        self._drain_output(DRAIN_WAIT)
        for pipe in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            pipe.close()

    # -- protocol ------------------------------------------------------------------------------

    def _handshake(self, timeout: float) -> float:
        try:
            self._write(self.launch.config)
            ready = json.loads(self._read_line(timeout))
        except (TimeoutError, EOFError, BrokenPipeError, MemoryExceeded) as exc:
            self.kill()
            raise WorkerStartError(f"the worker ({self.launch.python}) {self._start_failure(exc)}") from None
        return float(ready["import_s"])

    def _write(self, message: dict) -> None:
        self.proc.stdin.write((json.dumps(message) + "\n").encode())
        self.proc.stdin.flush()

    def _read_line(self, timeout: float) -> str:
        """The next protocol line; meanwhile drain the output and watch the memory."""
        deadline = time.monotonic() + timeout
        protocol, output = self.proc.stdout.fileno(), self.proc.stderr.fileno()
        while b"\n" not in self._buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError
            self.memory.check()
            watched = [protocol, output] if self._output_open else [protocol]
            ready, _, _ = select.select(watched, [], [], min(remaining, POLL))
            if output in ready:
                self._read_output()
            if protocol in ready:
                chunk = os.read(protocol, 1 << 16)
                if not chunk:
                    raise EOFError
                self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode()

    def _read_output(self) -> None:
        chunk = os.read(self.proc.stderr.fileno(), 1 << 20)
        if chunk:
            self.output.add(chunk)
        else:
            self._output_open = False

    def _drain_output(self, wait: float) -> None:
        """Collect what a dead worker left in the pipe (a grandchild that escaped may hold it open)."""
        deadline = time.monotonic() + wait
        fd = self.proc.stderr.fileno()
        while self._output_open and (remaining := deadline - time.monotonic()) > 0:
            if select.select([fd], [], [], remaining)[0]:
                self._read_output()

    # -- reasons -------------------------------------------------------------------------------

    def _crash_verdict(self) -> dict:
        self.kill()  # the exit status is already fixed; this reaps it and what user code started
        code = self.proc.returncode
        stacks = _read_text(self.stacks)
        if code < 0:
            name = signal.Signals(-code).name
            fatal = next((ln for ln in stacks.splitlines() if ln.startswith("Fatal Python error")), "")
            message = f"the worker crashed with {name}{_compiling(stacks)}" + (f" ({fatal})" if fatal else "")
        else:
            message = f"the worker exited with status {code}: {self.output.last_line()}"
        return _failure("Crash", message, self._user_frame(stacks))

    def _memory_message(self, exc: MemoryExceeded, doing: str = "") -> str:
        limit, used = gigabytes(self.launch.memory_limit), f"{exc.resident / 1e9:.2f} GB"
        return f"killed: memory over {limit}{doing} ({used} in use; raise --memory-limit if the Cell needs more)"

    def _start_failure(self, exc: BaseException) -> str:
        if isinstance(exc, MemoryExceeded):
            used, limit = f"{exc.resident / 1e9:.2f} GB", gigabytes(self.launch.memory_limit)
            return f"used {used} before MindSpore was ready, over the limit of {limit}: raise --memory-limit"
        reason = "timed out" if isinstance(exc, TimeoutError) else "exited"
        return f"{reason} before MindSpore was ready: {self.output.last_line()}"

    def _dump_stacks(self, wait: float) -> str:
        """Ask faulthandler in the worker for the stacks of all its threads."""
        try:
            os.kill(self.proc.pid, signal.SIGUSR1)
        except ProcessLookupError:
            return ""
        deadline = time.monotonic() + wait
        while "most recent call first" not in _read_text(self.stacks) and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(0.05)  # the dump is written in one go; let it finish
        return _read_text(self.stacks)

    def _user_frame(self, stacks: str) -> dict | None:
        """The user's innermost frame. A graph compile evaluates user code as "<string>": no line."""
        for path, line, _ in _FRAME.findall(stacks):  # faulthandler lists the most recent call first
            if _under(path, self.launch.user_roots):
                return {"path": path, "line": int(line), "code": _source_line(path, int(line))}
        return None


class Output:
    """What a worker printed during one job: the first and the last KEPT bytes, and how many in all."""

    def __init__(self):
        self.size = 0
        self.head = bytearray()
        self.tail = bytearray()

    def add(self, chunk: bytes) -> None:
        self.size += len(chunk)
        room = max(KEPT - len(self.head), 0)
        self.head += chunk[:room]
        self.tail += chunk[room:]
        del self.tail[:-KEPT]

    def last_line(self) -> str:
        text = (self.head + self.tail).decode(errors="replace")
        lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
        plain = [ln for ln in lines if not ln.startswith("[WARNING]")]
        return (plain or lines or ["no output"])[-1][:500]


class MemoryWatch:
    """The worker's resident memory, read at most every POLL seconds, against the limit."""

    def __init__(self, pid: int, limit: int | None):
        self.statm = f"/proc/{pid}/statm"
        self.limit = limit if limit and os.path.exists(self.statm) else None
        self.due = 0.0

    def check(self) -> None:
        now = time.monotonic()
        if self.limit is None or now < self.due:
            return
        self.due = now + POLL
        try:
            with open(self.statm) as statm:
                resident = int(statm.read().split()[1]) * PAGE
        except (OSError, ValueError, IndexError):  # gone: the protocol read reports how
            return
        if resident > self.limit:
            raise MemoryExceeded(resident)


def _spawn(launch: Launch, stacks: Path) -> subprocess.Popen:
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")  # no __pycache__ in the user's tree
    try:
        return subprocess.Popen(
            [launch.python, str(WORKER_SCRIPT), str(os.getpid()), str(launch.cwd.parent), str(stacks)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=launch.cwd,
            env=env,
            start_new_session=True,  # its own process group: one kill reaches all it started
        )
    except OSError as exc:
        raise WorkerStartError(f"cannot start a worker with {launch.python}: {exc.strerror}") from None


def _compiling(stacks: str) -> str:
    return " while MindSpore compiled the Cell" if _COMPILING.search(stacks) else ""


def _failure(kind: str, message: str, where: dict | None) -> dict:
    return {"status": "fail", "stage": "", "error": {"type": kind, "message": message, "where": where}}


def _read_text(path: Path) -> str:
    try:
        return path.read_bytes().decode(errors="replace")
    except OSError:
        return ""


def _under(path: str, roots: tuple[str, ...]) -> bool:
    path = os.path.abspath(path)
    return any(path == root or path.startswith(root + os.sep) for root in roots)


def _source_line(path: str, line: int) -> str:
    try:
        return Path(path).read_text(encoding="utf-8").splitlines()[line - 1].strip()
    except (OSError, IndexError, UnicodeDecodeError):
        return ""
