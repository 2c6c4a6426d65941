"""Many files: a cheap text pre-filter, a content-hash cache, and a process pool, in deterministic order.

Nothing a checked tree holds runs here. The pool's helper processes (its forkserver, resource tracker and
workers) start with a safe `sys.path` (`-P`: the working directory, which may hold a `multiprocessing.py`,
is not on it), and die with the process that started them. The cache only ever saves work: its entries are
signed with a key kept outside the tree, and never supply the bytes `fix` writes.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import hmac
import json
import multiprocessing
import os
import secrets
import signal
import sys
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import graphmend
from graphmend.files import FileError, FileResult, process_alive, process_source, syntax_error, too_large
from graphmend.finding import Edit, Finding
from graphmend.rules import RULES
from graphmend.rules import modules as rule_modules

if TYPE_CHECKING:
    from graphmend.incremental import Reparser

# A graph scope needs a Cell (and its construct) or a jit decorator; suppression comments are read too,
# and GM613 reads calls of `export(`.
# Files with none of these words cannot have a finding, and are not parsed at all.
_GRAPH_WORDS = (b"construct", b"Cell", b"jit", b"ms_function", b"graphmend:", b"export(")


@dataclass(frozen=True)
class Task:
    path: str
    data: bytes
    codes: tuple[str, ...]  # rule codes to run on this file
    fix: bool
    unsafe: bool
    max_bytes: int = 4_000_000  # larger files are not parsed at all


def may_have_graph_code(data: bytes) -> bool:
    return any(word in data for word in _GRAPH_WORDS)


def run_task(task: Task, incremental: Reparser | None = None) -> FileResult:
    """`task` done; a check with `incremental` reuses what it kept of the file's last version (`engine.check`)."""
    if len(task.data) > task.max_bytes:
        return FileResult(task.path, original=task.data, error=too_large(task.path, len(task.data), task.max_bytes))
    if not may_have_graph_code(task.data):
        # no libcst for this file; CPython's own parser still reports what would not parse
        return FileResult(task.path, original=task.data, error=syntax_error(task.path, task.data))
    # the codes exactly: none left after ignores means no rule (select_rules would take none as the default)
    rules = [RULES[code] for code in task.codes]
    return process_source(task.path, task.data, rules, task.fix, task.unsafe, incremental)


def run(tasks: Sequence[Task], jobs: int = 1, cache: Cache | None = None) -> list[FileResult]:
    """Every task's result, in the order of `tasks`, whatever order the workers finish in."""
    order = {id(task): i for i, task in enumerate(tasks)}
    results: list[FileResult | None] = [None] * len(tasks)
    for task, result in _results(tasks, jobs, cache):
        results[order[id(task)]] = result
    return results  # type: ignore[return-value]


def execute(tasks: Sequence[Task], jobs: int = 1, cache: Cache | None = None) -> Iterator[FileResult]:
    """Every task's result as soon as it is known: cache hits first, then in the order workers finish.
    Closing the generator (or an exception in the caller, such as a stop on SIGINT) kills the workers."""
    for _, result in _results(tasks, jobs, cache):
        yield result


def _results(tasks: Sequence[Task], jobs: int, cache: Cache | None) -> Iterator[tuple[Task, FileResult]]:
    todo = []
    for task in tasks:
        hit = cache.get(task) if cache else None
        if hit is None:
            todo.append(task)
        else:
            yield task, hit
    for task, result in _execute(todo, jobs):
        if cache and result.error is None:
            cache.put(task, result)
        yield task, result


def _execute(tasks: list[Task], jobs: int) -> Iterator[tuple[Task, FileResult]]:
    if jobs <= 1 or len(tasks) <= 1:
        for task in tasks:
            yield task, run_task(task)
        return
    # Workers are forked from a server process that has imported graphmend and nothing else, not from this
    # process, which holds the source of every file: forked from here, each worker would carry it too.
    # (Windows has no forkserver: its workers are spawned, which starts them as small.)
    server = "forkserver" in multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if server else None)
    if server:
        # the analysis is imported once, by the server, not by each worker
        context.set_forkserver_preload(["graphmend.runner", "graphmend.engine", *rule_modules()])
    pool, futures = None, {}
    try:
        with _safe_sys_path():
            pool = ProcessPoolExecutor(min(jobs, len(tasks)), context, _die_with_parent, (os.getpid(),))
            futures = {pool.submit(_run_in_worker, task): task for task in tasks}
        for future in as_completed(futures):
            task = futures.pop(future)
            try:
                result = future.result()
            except Exception as exc:  # a worker died (e.g. out of memory): that file fails, the run goes on
                message = f"internal error: {type(exc).__name__}: {exc}"
                result = FileResult(task.path, original=task.data, error=FileError(task.path, message))
            yield task, dataclasses.replace(result, original=task.data)
    finally:
        if pool is not None:
            _stop(pool, finished=not futures)


def _stop(pool: ProcessPoolExecutor, finished: bool) -> None:
    """A finished pool is shut down; one stopped early is killed: a worker may be minutes into a file."""
    if not finished:
        for process in list(getattr(pool, "_processes", {}).values()):  # no public way to reach them
            process.kill()
    pool.shutdown(wait=True, cancel_futures=True)


@contextlib.contextmanager
def _safe_sys_path() -> Iterator[None]:
    """Helper processes start as `python -c ...`, which puts the working directory first on `sys.path`:
    a `multiprocessing.py` or `ast.py` of the checked tree would run in them. PYTHONSAFEPATH (`-P`) keeps it
    off; every helper is started while the pool is set up and its jobs are submitted, inside this block."""
    before = os.environ.get("PYTHONSAFEPATH")
    os.environ["PYTHONSAFEPATH"] = "1"
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("PYTHONSAFEPATH", None)
        else:
            os.environ["PYTHONSAFEPATH"] = before


def _die_with_parent(graphmend: int) -> None:
    """A worker's parent is the forkserver, which exits when graphmend does (even on SIGKILL): the worker
    is killed with it instead of idling for minutes (Linux; elsewhere a worker ends when its queue breaks).

    The forkserver exits when the write end of its "alive" pipe is closed everywhere, and multiprocessing
    hands that end to every process it forks (so that they could start processes of their own). A worker
    that kept it would keep the forkserver alive after graphmend's death, and the forkserver the worker:
    both idled forever (a SIGKILL once the workers run left the resource tracker, the forkserver and both
    workers behind: test_attacks' "settled" case fails without this). Workers start no processes, so they
    close it."""
    from multiprocessing import forkserver

    server = getattr(forkserver, "_forkserver", None)
    alive = getattr(server, "_forkserver_alive_fd", None)
    if alive is not None:
        with contextlib.suppress(OSError):
            os.close(alive)
        server._forkserver_alive_fd = None  # type: ignore[union-attr]
    parent = os.getppid()
    if sys.platform.startswith("linux"):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != parent or not process_alive(graphmend):  # gone before the prctl took effect
        os._exit(1)


def _run_in_worker(task: Task) -> FileResult:
    """`run_task` in a worker: the parent has the source, so only an output that differs travels back."""
    result = run_task(task)
    return dataclasses.replace(result, original=b"", output=result.output if result.changed else None)


class Cache:
    """Findings per file, keyed by its content, graphmend's own code, the rules and the mode; and the target
    signs of a file (`graphmend.deploy`), keyed by its content and graphmend's own code.

    A cache directory inside a checked-out repository is untrusted input: anyone can commit one. So
    entries are JSON (never pickle), signed with a key that lives in the user's own cache directory
    (`$XDG_CACHE_HOME/graphmend/key`, mode 600) and is never in the tree, and an entry whose signature,
    rule codes or fields are wrong is ignored. An entry never holds a fixed output: a file with a fix is
    fixed again, so the bytes `fix` writes always come from the rules, never from a file on disk.
    """

    def __init__(self, directory: Path, key: bytes | None = None) -> None:
        self.directory = directory
        self._salt = _code_fingerprint()
        self._key = key if key is not None else user_key()

    @property
    def enabled(self) -> bool:
        return self._key is not None

    def key(self, task: Task) -> str:
        return self._digest(task.data, ",".join(task.codes).encode(), b"fix" if task.fix else b"check",
                            b"unsafe" if task.unsafe else b"safe")  # fmt: skip

    def get(self, task: Task) -> FileResult | None:
        payload = self._load(self.key(task))
        try:
            return None if payload is None else _decode(task, json.loads(payload))
        except (ValueError, KeyError, TypeError, LookupError, AttributeError):
            return None

    def put(self, task: Task, result: FileResult) -> None:
        if not result.applied:  # a fixed output is never cached (see the class docstring)
            self._store(self.key(task), json.dumps(_encode(result)))

    def get_signs(self, data: bytes) -> list | None:
        """What `graphmend.deploy.signs` found in a file with this content (as JSON), or None."""
        payload = self._load(self._digest(b"signs", data))
        try:
            found = None if payload is None else json.loads(payload)
        except ValueError:
            return None
        return found if isinstance(found, list) else None

    def put_signs(self, data: bytes, found: list) -> None:
        self._store(self._digest(b"signs", data), json.dumps(found))

    def _digest(self, *parts: bytes) -> str:
        digest = hashlib.sha256(self._salt)
        for part in parts:
            digest.update(len(part).to_bytes(8, "little"))
            digest.update(part)
        return digest.hexdigest()

    def _load(self, key: str) -> str | None:
        """The payload stored under `key`, if its signature is ours."""
        if self._key is None:
            return None
        try:
            entry = json.loads(self._path(key).read_text(encoding="utf-8"))
            payload = entry["payload"]
            if isinstance(payload, str) and hmac.compare_digest(str(entry["mac"]), self._mac(key, payload)):
                return payload
        except (OSError, ValueError, KeyError, TypeError):
            pass
        return None

    def _store(self, key: str, payload: str) -> None:
        if self._key is None:
            return
        path = self._path(key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            if not (self.directory / "CACHEDIR.TAG").exists():
                (self.directory / "CACHEDIR.TAG").write_text("Signature: 8a477f597d28d172789f06886806bc55\n")
                (self.directory / ".gitignore").write_text("*\n")
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(json.dumps({"payload": payload, "mac": self._mac(key, payload)}), encoding="utf-8")
            os.replace(tmp, path)
        except OSError:
            pass  # a read-only tree simply runs uncached

    def _mac(self, key: str, payload: str) -> str:
        return hmac.new(self._key, f"{key}\n{payload}".encode(), hashlib.sha256).hexdigest()  # type: ignore[arg-type]

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"


def user_key() -> bytes | None:
    """This user's cache signing key, made on first use; None (no cache) where it cannot be kept safely."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    path = base / "graphmend" / "key"
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(fd, "w") as handle:
                handle.write(secrets.token_hex(32))
        info = os.lstat(path)
        if info.st_uid != os.geteuid() or info.st_mode & 0o077:
            return None  # someone else could read or plant it
        key = path.read_text(encoding="ascii").strip()
    except (OSError, RuntimeError, UnicodeDecodeError):  # RuntimeError: no home directory
        return None
    return key.encode() if len(key) == 64 else None


def _encode(result: FileResult) -> dict:
    return {"findings": [dataclasses.asdict(f) for f in result.findings], "encoding": result.encoding}


def _decode(task: Task, entry: dict) -> FileResult:
    findings = tuple(
        Finding(**{**item, "path": task.path, "edits": tuple(Edit(*edit) for edit in item["edits"])})
        for item in entry["findings"]
    )
    if any(f.code not in RULES or f.path != task.path for f in findings):
        raise KeyError("unknown rule code")
    "".encode(entry["encoding"])  # an unknown encoding raises LookupError: the entry is ignored
    return FileResult(task.path, findings, (), task.data, task.data if task.fix else None, encoding=entry["encoding"])


def _code_fingerprint() -> bytes:
    """A hash of graphmend's own source, so any change to a rule invalidates the cache."""
    digest = hashlib.sha256(graphmend.__name__.encode())
    package = Path(graphmend.__file__).parent
    for path in sorted(package.rglob("*.py")):
        if "verify" not in path.relative_to(package).parts:
            digest.update(path.read_bytes())
    return digest.digest()
