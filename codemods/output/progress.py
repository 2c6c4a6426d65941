"""Feedback on long runs: results released in path order as soon as they can be, a periodic progress line
for logs (off a terminal), and an ETA that does not jump (on one)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable

from rich.progress import ProgressColumn, Task
from rich.text import Text

from graphmend.files import FileResult

INTERVAL_VARIABLE = "GRAPHMEND_PROGRESS_INTERVAL"
DEFAULT_INTERVAL = 10.0  # seconds between two progress lines off a terminal


class InOrder:
    """Hands results to `emit` sorted by path, each as soon as every path before it has arrived: output
    streams while a run goes on and is the same, byte for byte, whatever order the workers finish in."""

    def __init__(self, paths: Iterable[str], emit: Callable[[FileResult], None]) -> None:
        self.expected = sorted(paths)
        self.emit = emit
        self.next = 0
        self.waiting: dict[str, FileResult] = {}
        self.emitted: set[str] = set()

    def add(self, result: FileResult) -> None:
        self.waiting[result.path] = result
        while self.next < len(self.expected) and self.expected[self.next] in self.waiting:
            self._emit(self.waiting.pop(self.expected[self.next]))
            self.next += 1

    def finish(self, results: Iterable[FileResult]) -> None:
        """Emit what is left (after a stop, or results that were never tasks), in path order."""
        for result in sorted(results, key=lambda r: r.path):
            if result.path not in self.emitted:
                self._emit(result)

    def _emit(self, result: FileResult) -> None:
        self.emitted.add(result.path)
        self.emit(result)


def interval() -> float:
    """Seconds between progress lines: `GRAPHMEND_PROGRESS_INTERVAL` (0: a line after every file)."""
    try:
        value = float(os.environ.get(INTERVAL_VARIABLE, DEFAULT_INTERVAL))
    except ValueError:
        return DEFAULT_INTERVAL
    return value if value >= 0 else DEFAULT_INTERVAL


class Ticker:
    """`graphmend: 400/1729 files, 12 findings` through `write`, at most once every `every` seconds."""

    def __init__(self, total: int, write: Callable[[str], None], every: float, clock=time.monotonic) -> None:
        self.total, self.write, self.every, self.clock = total, write, every, clock
        self.done = self.findings = 0
        self.last = clock()

    def add(self, result: FileResult) -> None:
        self.done += 1
        self.findings += len(result.findings) + len(result.applied)
        now = self.clock()
        if now - self.last >= self.every:
            self.last = now
            noun = "finding" if self.findings == 1 else "findings"
            self.write(f"graphmend: {self.done}/{self.total} files, {self.findings} {noun}")


def eta(elapsed_at_last: float, done: int, total: int, elapsed: float) -> float | None:
    """Seconds left, from the average time per file over the whole run so far (not a recent window,
    which jumps with every slow or cached file), counting down between two finished files."""
    if done <= 0 or total <= 0:
        return None
    return max(0.0, elapsed_at_last / done * total - elapsed)


class SteadyETA(ProgressColumn):
    """rich's TimeRemainingColumn estimates from the last 30 s of samples; this one from the whole run."""

    def __init__(self) -> None:
        super().__init__()
        self.seen, self.at = 0, 0.0

    def render(self, task: Task) -> Text:
        elapsed = task.elapsed or 0.0
        if task.completed != self.seen:
            self.seen, self.at = int(task.completed), elapsed
        left = eta(self.at, self.seen, int(task.total or 0), elapsed)
        if left is None:
            return Text("eta -:--:--", style="progress.remaining")
        minutes, seconds = divmod(int(left + 0.5), 60)
        hours, minutes = divmod(minutes, 60)
        return Text(f"eta {hours}:{minutes:02}:{seconds:02}", style="progress.remaining")
