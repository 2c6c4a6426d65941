"""Parent side of the worker protocol: start a worker, send it jobs, survive what user code does.

On Linux the process started here is the worker's keeper (worker.py): a child subreaper that forks
the worker and stays behind, so every process user code starts stays in its tree however it
detaches (a new session, a double fork, an empty environment). When the worker ends (a timeout, a
memory overrun, a crash, the end of the run), the keeper kills and reaps that whole tree and exits
the way the worker did; the parent ends a worker by asking its keeper (SIGTERM) and waits for it.
The parent never adopts, signals or reaps any other process, so verify called as a library from a
long-lived process leaves that process's own children alone. Out of reach: what user code has a
service manager start (systemd-run, at: not its descendants), and what it leaves after killing
its own keeper.
Without prctl (not Linux) there is no keeper: the worker is the process started here, alone in its
process group (a new session), and one kill of the group ends it and what user code started,
except processes that left the group with setsid.
A worker that crashed, hung or was killed is gone; the next job starts a fresh one (MindSpore is
imported once per worker, not once per job).

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
MIN_START_TIMEOUT = 120.0  # `import mindspore` alone took up to 15 s on a loaded 2-core machine
STACK_WAIT = 2.0  # seconds a hung worker gets to write its stack before it is killed
MEMORY_STACK_WAIT = 1.0  # shorter: its memory may still be growing (waits end once the dump is whole)
KEEPER_WAIT = 30.0  # seconds a keeper gets to end its tree (it gives up after 10) before its group is killed
POLL = 0.1  # seconds between two readings of a worker's memory
KEPT = 64 * 1024  # bytes of a job's output kept from its start, and again from its end
DRAIN_WAIT = 1.0  # seconds to collect the last output of a killed worker
PAGE = os.sysconf("SC_PAGE_SIZE")
_FRAME = re.compile(r'File "(.+)", line (\d+) in (\S+)')
_COMPILING = re.compile(r'mindspore[/\\](?:graph|common)[/\\]api\.py", line \d+ in compile$', re.MULTILINE)
# A dump is whole once the main thread's outermost frame (the worker script's module) is in, or the
# line faulthandler writes where it cuts a deep stack; it is written in many small pieces.
_DUMPED = re.compile(re.escape(f'File "{WORKER_SCRIPT}", line ') + r"\d+ in <module>$|^  \.\.\.$", re.MULTILINE)


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

    def load(self, launch: Launch) -> None:
        """Serve the next request: a live worker forgets the last one's modules and takes the new
        configuration (a worker that cannot is ended); a worker started later starts with it."""
        self.launch = launch
        if self.worker is None or self.closed:
            return
        reply = self.worker.run({"op": "load", "config": launch.config}, launch.timeout)
        if reply.get("status") != "pass" or self.worker.proc.poll() is not None:
            self.worker.kill()
            self.worker = None

    def run(self, job: dict) -> dict:
        if self.closed:
            return _failure("Stopped", "the run was stopped before this job", None)
        try:
            self.start()
        except WorkerStartError as exc:
            return _failure("Start", str(exc), None)
        reply = self.worker.run(job, self.launch.timeout)
        if self.worker.proc.poll() is not None:  # it died with its reply, or after it
            self.worker.kill()  # closes its pipes
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
        self.memory = MemoryWatch(self.proc.pid, None)  # the worker's own pid comes in its first line
        self.keeper = False  # whether self.proc is the worker's keeper; its first line says
        self.ended = False
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
        """End the worker and everything user code started, then collect its last output."""
        self._end()  # again if another thread is at it (Ctrl-C): on return the exit status is known
        if not self.ended:
            self.ended = True
            self._drain_output(DRAIN_WAIT)
            for pipe in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
                pipe.close()

    def _end(self) -> None:
        if self.proc.returncode is not None:  # reaped: its pid may be another process's by now
            return
        if self.keeper:
            self.proc.send_signal(signal.SIGTERM)  # the keeper kills the worker, then all left in its tree
            try:
                self.proc.wait(KEEPER_WAIT)
                return
            except subprocess.TimeoutExpired:  # a process it cannot kill: do without its cleanup
                pass
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)  # its group: the keeper, the worker, what stayed in it
        except ProcessLookupError:
            pass
        self.proc.wait()

    # -- protocol ------------------------------------------------------------------------------

    def _handshake(self, timeout: float) -> float:
        deadline = time.monotonic() + timeout
        try:
            self._write(self.launch.config)
            self._meet(json.loads(self._read_line(timeout)))
            ready = json.loads(self._read_line(deadline - time.monotonic()))
        except (TimeoutError, EOFError, BrokenPipeError, MemoryExceeded) as exc:
            self.kill()
            raise WorkerStartError(f"the worker ({self.launch.python}) {self._start_failure(exc)}") from None
        return float(ready["import_s"])

    def _meet(self, hello: dict) -> None:
        """The worker's first line: its pid (whose memory counts) and whether a keeper started it."""
        self.keeper = bool(hello["keeper"])
        self.memory = MemoryWatch(int(hello["pid"]), self.launch.memory_limit)

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
        """Collect what a dead worker left in the pipe (without a keeper, an escaped process may hold it open)."""
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
        """Ask faulthandler in the worker for the stacks of all its threads (a keeper passes it on)."""
        if self.proc.poll() is not None:
            return ""
        self.proc.send_signal(signal.SIGUSR1)
        deadline = time.monotonic() + wait
        while not _DUMPED.search(stacks := _read_text(self.stacks)) and time.monotonic() < deadline:
            time.sleep(0.02)
        return stacks

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
            start_new_session=True,  # no terminal signals; without a keeper, one kill of the group reaches all
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
