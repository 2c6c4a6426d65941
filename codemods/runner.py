"""Many files: a cheap text pre-filter, a content-hash cache, and a process pool, in deterministic order."""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import json
import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

import codemods
from codemods.files import FileError, FileResult, process_source, syntax_error
from codemods.rule import Finding
from codemods.rules import select_rules

# A graph scope needs a Cell (and its construct) or a jit decorator; suppression comments are read too.
# Files with none of these words cannot have a finding, and are not parsed at all.
_GRAPH_WORDS = (b"construct", b"Cell", b"jit", b"ms_function", b"graphmend:")


@dataclass(frozen=True)
class Task:
    path: str
    data: bytes
    codes: tuple[str, ...]  # rule codes to run on this file
    fix: bool
    unsafe: bool
    max_bytes: int = 4_000_000  # larger files with graph code are not given to libcst


def may_have_graph_code(data: bytes) -> bool:
    return any(word in data for word in _GRAPH_WORDS)


def run_task(task: Task) -> FileResult:
    if not may_have_graph_code(task.data):
        # no libcst for this file; CPython's own parser still reports what would not parse
        return FileResult(task.path, original=task.data, error=syntax_error(task.path, task.data))
    if len(task.data) > task.max_bytes:
        # libcst needs about 400 bytes of memory per byte of source and minutes for 20 MB
        message = f"not checked: {len(task.data) / 1e6:.1f} MB is over the {task.max_bytes / 1e6:g} MB limit " \
                  "(--max-file-size raises it; generated files are better excluded)"  # fmt: skip
        return FileResult(task.path, original=task.data, error=FileError(task.path, message))
    return process_source(task.path, task.data, select_rules(task.codes), task.fix, task.unsafe)


def run(
    tasks: Sequence[Task],
    jobs: int = 1,
    cache: Cache | None = None,
    on_done: Callable[[FileResult], None] | None = None,
) -> list[FileResult]:
    """Every task's result, in the order of `tasks`, whatever order the workers finish in."""
    results: list[FileResult | None] = [None] * len(tasks)
    todo: list[int] = []
    for i, task in enumerate(tasks):
        hit = cache.get(task) if cache else None
        if hit is not None:
            results[i] = hit
            if on_done:
                on_done(hit)
        else:
            todo.append(i)
    for i, result in _execute([tasks[i] for i in todo], todo, jobs):
        results[i] = result
        if cache and result.error is None:
            cache.put(tasks[i], result)
        if on_done:
            on_done(result)
    return results  # type: ignore[return-value]


def _execute(tasks: list[Task], indexes: list[int], jobs: int):
    if jobs <= 1 or len(tasks) <= 1:
        for i, task in zip(indexes, tasks, strict=True):
            yield i, run_task(task)
        return
    # Workers are forked from a server process that has imported graphmend and nothing else, not from this
    # process, which holds the source of every file: forked from here, each worker would carry it too.
    # (Windows has no forkserver: its workers are spawned, which starts them as small.)
    server = "forkserver" in multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if server else None)
    if server:
        context.set_forkserver_preload(["codemods.runner"])
    by_index = dict(zip(indexes, tasks, strict=True))
    with ProcessPoolExecutor(max_workers=min(jobs, len(tasks)), mp_context=context) as pool:
        futures = {pool.submit(_run_in_worker, task): i for i, task in by_index.items()}
        for future in as_completed(futures):
            i = futures.pop(future)
            task = by_index[i]
            try:
                result = future.result()
            except Exception as exc:  # a worker died (e.g. out of memory): that file fails, the run goes on
                message = f"internal error: {type(exc).__name__}: {exc}"
                result = FileResult(task.path, original=task.data, error=FileError(task.path, message))
            yield i, dataclasses.replace(result, original=task.data)


def _run_in_worker(task: Task) -> FileResult:
    """`run_task` in a worker: the parent has the source, so only an output that differs travels back."""
    result = run_task(task)
    return dataclasses.replace(result, original=b"", output=result.output if result.changed else None)


class Cache:
    """Results per file, keyed by its content, graphmend's own code, the rules and the mode.

    Stored as JSON (never pickle: a cache directory inside a checked-out repository is untrusted input).
    """

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._salt = _code_fingerprint()

    def key(self, task: Task) -> str:
        digest = hashlib.sha256(self._salt)
        for part in (task.data, ",".join(task.codes).encode(), b"fix" if task.fix else b"check",
                     b"unsafe" if task.unsafe else b"safe"):  # fmt: skip
            digest.update(len(part).to_bytes(8, "little"))
            digest.update(part)
        return digest.hexdigest()

    def get(self, task: Task) -> FileResult | None:
        try:
            entry = json.loads((self._path(task)).read_text(encoding="utf-8"))
            return _decode(task, entry)
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def put(self, task: Task, result: FileResult) -> None:
        path = self._path(task)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            if not (self.directory / "CACHEDIR.TAG").exists():
                (self.directory / "CACHEDIR.TAG").write_text("Signature: 8a477f597d28d172789f06886806bc55\n")
                (self.directory / ".gitignore").write_text("*\n")
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(json.dumps(_encode(result)), encoding="utf-8")
            os.replace(tmp, path)
        except OSError:
            pass  # a read-only tree simply runs uncached

    def _path(self, task: Task) -> Path:
        key = self.key(task)
        return self.directory / key[:2] / f"{key}.json"


def _encode(result: FileResult) -> dict:
    output = None
    if result.changed:
        output = base64.b64encode(result.output).decode()  # type: ignore[arg-type]
    return {
        "findings": [dataclasses.asdict(f) for f in result.findings],
        "applied": [dataclasses.asdict(f) for f in result.applied],
        "output": output,
        "encoding": result.encoding,
    }


def _decode(task: Task, entry: dict) -> FileResult:
    def findings(items: list[dict]) -> tuple[Finding, ...]:
        return tuple(dataclasses.replace(Finding(**item), path=task.path) for item in items)

    output = base64.b64decode(entry["output"]) if entry["output"] is not None else None
    if task.fix and output is None:
        output = task.data
    return FileResult(task.path, findings(entry["findings"]), findings(entry["applied"]), task.data,
                      output, encoding=entry["encoding"])  # fmt: skip


def _code_fingerprint() -> bytes:
    """A hash of graphmend's own source, so any change to a rule invalidates the cache."""
    digest = hashlib.sha256(codemods.__name__.encode())
    package = Path(codemods.__file__).parent
    for path in sorted(package.rglob("*.py")):
        if "verify" not in path.relative_to(package).parts:
            digest.update(path.read_bytes())
    return digest.digest()
