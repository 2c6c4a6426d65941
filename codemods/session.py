"""One run over many files, as the CLI does it: settings and options merged, files selected and read,
checked or fixed in parallel, and (for `fix`) each file written as soon as its result is final.

    from graphmend.session import Options, open_session, run

    session = open_session([Path("src")], Options(select=["GM1"]), fix=True)
    outcome = run(session, write=True)       # outcome.results, sorted by path; outcome.written ...

`open_session` raises `ConfigError`, `UnknownRule` or `NothingToCheck` for what the caller must fix.
Nothing here imports MindSpore or runs the code it reads; `run(..., prove=...)` hands each changed file
to a caller-given proof (the verifier) before it is written.
"""

from __future__ import annotations

import contextlib
import functools
import os
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from graphmend import config as configuration
from graphmend import deploy
from graphmend.files import FileError, FileResult, WriteError, read_source, select_files, too_large, write_atomic
from graphmend.rules import INDEX, select_codes
from graphmend.runner import Cache, Task, execute, may_have_graph_code
from graphmend.targets import Target

if TYPE_CHECKING:  # the verifier package is imported only by a run that verifies
    from graphmend.verify import Verifier
    from graphmend.verify.recording import Recording


class NothingToCheck(Exception):
    """No file was selected: a run that checks nothing must not look like a clean one (unless every file
    given was excluded and `force_exclude` was asked for: `excluded` counts them)."""

    def __init__(self, message: str, excluded: int = 0) -> None:
        super().__init__(message)
        self.excluded = excluded


@dataclass(frozen=True)
class Options:
    """What the command line (or a caller) sets on top of `[tool.graphmend]`; None: the file's value."""

    select: Sequence[str] | None = None
    ignore: Sequence[str] = ()
    unsafe: bool | None = None
    exclude: Sequence[str] = ()
    config: Path | None = None
    jobs: int = 0  # 0: every core, or in-process for a small run (auto_jobs)
    cache: bool = True
    changed_since: str | None = None
    max_file_size: float | None = None  # MB
    extend_select: Sequence[str] = ()  # added to `select` (or to the default rules)
    force_exclude: bool = False  # a file named explicitly is excluded too (it always is); see NothingToCheck
    target: frozenset[Target] | None = None  # None: the config's, else what the checked code asks for


@dataclass
class Session:
    settings: configuration.Settings
    unsafe: bool
    fix: bool
    tasks: list[Task]
    errors: list[FileError]  # paths that could not be selected or read
    cache: Cache | None
    jobs: int
    codes: tuple[str, ...] = ()  # the rules selected, before per-file ignores
    choice: deploy.Choice = deploy.Choice(frozenset(Target), "")  # the targets, and why those


@dataclass
class Outcome:
    results: list[FileResult]  # sorted by path; a file not reached before a stop is not among them
    written: list[FileResult] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)  # why a changed file was not written
    warnings: list[str] = field(default_factory=list)
    not_checked: int = 0  # files a stop left unchecked
    stopped_by: int | None = None  # the signal that stopped the run


def open_session(paths: Sequence[Path], options: Options, fix: bool) -> Session:
    """Merge the config file with the options, select the files and read them."""
    paths = list(paths) or [Path(".")]
    settings = configuration.load(paths, options.config)
    selected, ignored, unsafe, megabytes = _choices(settings, options)
    chosen = select_files(paths, settings, tuple(options.exclude), options.changed_since)
    if not chosen.files and not chosen.errors and options.changed_since is None:
        found = select_files(paths, configuration.Settings(root=settings.root)).files
        raise NothingToCheck(f"all {len(found)} Python file(s) under the given paths are excluded" if found
                             else "no Python file under the given paths", len(found))  # fmt: skip
    read, errors = [], list(chosen.errors)
    for path in chosen.files:
        data = read_source(path, int(megabytes * 1e6))
        if isinstance(data, FileError):
            errors.append(data)
        else:
            read.append((path, data))
    cache = Cache(settings.root / ".graphmend_cache") if options.cache else None
    choice = _target(settings, options, [(str(path), data) for path, data in read], cache)
    tasks, known = [], {}  # most files share their ignores: their codes are worked out once
    for path, data in read:
        ignores = (*ignored, *settings.ignored_for(path))
        if ignores not in known:
            known[ignores] = _codes(selected, ignores, choice.targets)
        codes = known[ignores]
        tasks.append(Task(str(path), data, codes, fix, unsafe, int(megabytes * 1e6)))
    return Session(settings, unsafe, fix, tasks, errors, cache, options.jobs or auto_jobs(tasks),
                   _codes(selected, ignored, choice.targets), choice)  # fmt: skip


# Below this many bytes of files with graph code, a run without --jobs stays in-process: starting a pool
# (a forkserver that imports graphmend and libcst, then its workers) costs about a second of CPU, more
# than that much code takes to check on one core.
IN_PROCESS_BYTES = 64_000


def auto_jobs(tasks: Sequence[Task]) -> int:
    """The workers of a run without --jobs: one (in-process) for a small run, else one per core."""
    if sum(len(t.data) for t in tasks if may_have_graph_code(t.data)) < IN_PROCESS_BYTES:
        return 1
    return os.cpu_count() or 1


def open_stdin(filename: Path, data: bytes, options: Options, fix: bool) -> Session:
    """A session over one buffer (an editor's, on stdin) checked as if it were `filename`: that file's
    config, per-file ignores and excludes apply; nothing is read from or written to disk but the config."""
    settings = configuration.load([filename], options.config)
    selected, ignored, unsafe, megabytes = _choices(settings, options)
    patterns = (*settings.exclude, *options.exclude)
    if patterns and configuration.Settings(root=settings.root, exclude=patterns).is_excluded(filename):
        raise NothingToCheck(f"{filename} is excluded", 1)
    errors = [too_large(str(filename), len(data), int(megabytes * 1e6))] if len(data) > megabytes * 1e6 else []
    choice = _target(settings, options, [] if errors else [(str(filename), data)])
    codes = _codes(selected, [*ignored, *settings.ignored_for(filename)], choice.targets)
    tasks = [] if errors else [Task(str(filename), data, codes, fix, unsafe, int(megabytes * 1e6))]
    return Session(settings, unsafe, fix, tasks, errors, None, 1, _codes(selected, ignored, choice.targets), choice)


def _codes(selected, ignored, targets: frozenset[Target]) -> tuple[str, ...]:
    """The rules selected whose pattern breaks under at least one of `targets` (its BREAKS)."""
    return tuple(code for code in select_codes(selected, ignored) if INDEX[code].BREAKS.applies(targets))


def _target(settings: configuration.Settings, options: Options, files, cache: Cache | None = None) -> deploy.Choice:
    """`--target`, else the config's `target`, else what the checked code asks for (graphmend.deploy)."""
    if options.target is not None:
        return deploy.Choice(options.target, "--target")
    if settings.target is not None:
        return deploy.Choice(settings.target, f"target in {settings.source}")
    return deploy.default(files, cache)


def _choices(settings: configuration.Settings, options: Options):
    """The rules selected and ignored, unsafe-fixes and the size limit: the options over the config."""
    selected = list(options.select) if options.select else (
        list(settings.select) if settings.select is not None else None)  # fmt: skip
    if options.extend_select:
        defaults = [rule.CODE for rule in INDEX.values() if rule.DEFAULT]
        selected = [*(defaults if selected is None else selected), *options.extend_select]
    ignored = [*settings.ignore, *options.ignore]
    select_codes(selected, ignored)  # validates the codes before any work
    megabytes = settings.max_file_size if options.max_file_size is None else _megabytes(options.max_file_size)
    unsafe = settings.unsafe_fixes if options.unsafe is None else options.unsafe
    return selected, ignored, unsafe, megabytes


def _megabytes(value: float) -> float:
    if not 0 < value <= configuration.MAX_FILE_SIZE:  # also refuses nan
        raise configuration.ConfigError(f"--max-file-size: expected megabytes > 0 and <= "
                                        f"{configuration.MAX_FILE_SIZE:g}, got {value:g}")  # fmt: skip
    return value


Proof = Callable[[FileResult], str | None]  # why a changed file must not be written, or None


def run(
    session: Session,
    write: bool = False,
    prove: Proof | None = None,
    on_done: Callable[[FileResult], None] | None = None,
    outcome: Outcome | None = None,
) -> Outcome:
    """Check (or fix) every file; with `write`, each changed file is written (after `prove` passes) as
    soon as its result arrives, so a stop keeps what was done. SIGINT and SIGTERM stop the run between two
    files, never in the middle of a write.

    `on_done` is called with each result as it arrives, after its write; it may read `outcome` (an empty
    Outcome the caller passes in and `run` fills and returns) to see whether that file was written."""
    outcome = outcome if outcome is not None else Outcome([])
    outcome.results[:0] = [FileResult(e.path, error=e) for e in session.errors]
    done = 0
    try:
        with _stoppable() as guard, contextlib.closing(execute(session.tasks, session.jobs, session.cache)) as results:
            for result in results:
                done += 1
                outcome.results.append(result)
                if write and result.changed:
                    refused = prove(result) if prove else None  # a stop while proving abandons this file
                    with guard.critical():  # a stop while writing waits for the write to end
                        _write_one(result, refused, outcome)
                if on_done:
                    on_done(result)
    except Stopped as stop:
        outcome.stopped_by = stop.signum
        outcome.not_checked = len(session.tasks) - done
    outcome.results.sort(key=lambda r: r.path)
    return outcome


def write(results: Sequence[FileResult]) -> Outcome:
    """Write every changed result (`fix --interactive` writes what was accepted, after the review)."""
    outcome = Outcome(list(results))
    for result in results:
        if result.changed:
            _write_one(result, None, outcome)
    return outcome


def long_lines(results: Sequence[FileResult], limit: int) -> list[tuple[str, int, int]]:
    """(path, line, length) of each line a fix wrote that is longer than `limit` and was not in the file
    before (a long line the file already had is not the fix's)."""
    found = []
    for result in [r for r in results if r.changed]:
        before = set(result.original.decode(result.encoding).splitlines())
        after = result.output.decode(result.encoding).splitlines()  # type: ignore[union-attr]
        found += [(result.path, n, len(text)) for n, text in enumerate(after, 1)
                  if len(text) > limit and text not in before]  # fmt: skip
    return found


def _write_one(result: FileResult, refused: str | None, outcome: Outcome) -> None:
    if refused:
        outcome.failed.append(refused)
        return
    try:
        warning = write_atomic(Path(result.path), result.output, result.original)  # type: ignore[arg-type]
    except WriteError as exc:
        outcome.failed.append(str(exc))
        return
    outcome.written.append(result)
    if warning:
        outcome.warnings.append(warning)


class Stopped(Exception):
    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


class _Guard:
    """SIGINT/SIGTERM raise Stopped, except inside `critical()`, where they wait for its end."""

    def __init__(self) -> None:
        self.depth = 0
        self.pending: int | None = None

    def handle(self, signum: int, _frame) -> None:
        if self.depth:
            self.pending = signum
        else:
            raise Stopped(signum)

    @contextlib.contextmanager
    def critical(self) -> Iterator[None]:
        self.depth += 1
        try:
            yield
        finally:
            self.depth -= 1
        if not self.depth and self.pending is not None:
            raise Stopped(self.pending)


@contextlib.contextmanager
def _stoppable() -> Iterator[_Guard]:
    guard = _Guard()
    if threading.current_thread() is not threading.main_thread():  # signals reach the main thread only
        yield guard
        return
    previous = {sig: signal.signal(sig, guard.handle) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield guard
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def verifications(
    result: FileResult,
    settings: configuration.Settings,
    targets: frozenset[Target] | None = None,
    verifier: Verifier | None = None,
    recording: Recording | None = None,
    tree: Sequence[Path] = (),
) -> Iterator[tuple[str, object]]:
    """(Cell, Report or why it could not run) for each `[[tool.graphmend.verify]]` Cell in a changed file
    (twice, eval and "Cell (training)", when its construct reads `self.training`), then, with a
    `recording`, for each other Cell the fix touches (directly, through a helper, or its base): one per
    recorded sample, or a recording.NotReached (a str: why not) when the recording cannot verify it; and for
    each Cell of another module (among the run's files `tree` and the modules the recording reached) that
    uses a function or Cell the fix changed, verified with this file rewritten beside its own. With
    the checks of `targets` (None: every check), on `verifier`'s workers (a run keeps one open across its
    files; None: workers for this file alone). This runs the user's code, in the verifier's child processes."""
    from graphmend.targets import checks as checks_of
    from graphmend.verify import Request, UsageError, Verifier, cell_source
    from graphmend.verify.api import applicable

    mine = verifier is None
    verifier = verifier or Verifier()
    source = result.output.decode(result.encoding)  # type: ignore[union-attr]

    def run(label: str, request: Request) -> tuple[str, object]:
        try:
            return label, verifier.verify(request)
        except UsageError as exc:
            return label, str(exc)

    try:
        configured = [t for t in settings.verify if t.file(settings.root) == Path(result.path).resolve()]
        for target in configured:
            checks = applicable(checks_of(targets), target.inputs) if targets is not None else None
            cell, path = target.cell.rpartition(":")[2], target.file(settings.root)
            sources = [cell_source.read(path, cell), cell_source.read(path, cell, source)]
            for train in cell_source.modes(None, sources):  # both when construct reads self.training
                request = Request(path, source, cell, target.init, list(target.inputs), checks=checks, train=train)
                yield run(target.cell + (" (training)" if train else ""), request)
        if recording is not None:
            yield from _recorded(result, source, recording, {t.cell.rpartition(":")[2] for t in configured},
                                 None if targets is None else checks_of(targets), run, tree)  # fmt: skip
    finally:
        if mine:
            verifier.close()


def _recorded(result: FileResult, source: str, recording: Recording, configured: set[str], checks, run,
              tree: Sequence[Path] = ()):  # fmt: skip
    from graphmend.verify.recording import NotReached
    from graphmend.verify.staging import locate, shown
    from graphmend.verify.touched import changes

    path = Path(result.path).resolve()
    module = locate(path).name
    cells, names = changes(result.original.decode(result.encoding), source)
    for cell in cells:
        if cell.cell in configured:
            continue
        label = f"{shown(str(path))}:{cell.cell}"
        made = recording.requests(module, path, source, cell.cell, checks=checks)
        if isinstance(made, NotReached):
            yield label, made
            continue
        for name, request in made:
            yield run(f"{shown(str(path))}:{name}" + (" (training)" if request.train else ""), request)
    for other, name, text, cell in _importers(path, names, recording, tree):
        label = f"{shown(str(other))}:{cell.cell} ({cell.how})"
        made = recording.requests(name, other, text, cell.cell, checks=checks, also=((path, source),))
        if isinstance(made, NotReached):
            yield label, made
            continue
        for each, request in made:
            yield run(f"{shown(str(other))}:{each} ({cell.how})" + (" (training)" if request.train else ""),
                      request)  # fmt: skip


def _importers(path: Path, names: set[str], recording: Recording, tree: Sequence[Path]):
    """(file, module, its source, Touched) for each Cell of another module of the same import root that
    uses `names`, what the rewrite of `path` changed, directly or through the modules in between (a Cell
    that calls `b.f`, where `b.f` calls the changed `c.g`): among the run's files `tree` and the modules
    the recording reached."""
    from graphmend.verify.staging import locate
    from graphmend.verify.touched import may_import, reach

    mod = locate(path)
    if not names:
        return
    candidates = {Path(p).resolve() for p in tree}
    for key in recording.cells:
        module = key.rpartition(":")[0]
        if module and not Path(module).is_absolute():  # a script's own classes are keyed by their file
            for found in (mod.root.joinpath(*module.split(".")).with_suffix(".py"),
                          mod.root.joinpath(*module.split("."), "__init__.py")):  # fmt: skip
                if found.is_file():
                    candidates.add(found.resolve())
    changed = {mod.name: set(names)}  # grows by a hop at a time, until no module adds a name
    done: set[tuple[Path, str]] = set()  # (file, Cell) already given
    texts: dict[Path, str] = {}  # a module a later hop reaches again is read once
    frontier = [mod.name]
    while frontier:
        reached = frontier
        frontier = []
        for other in sorted(candidates - {path}):
            if not other.is_relative_to(mod.root):
                continue
            found = _imports_of(other)
            if found is None or found[0].root != mod.root:
                continue
            if not any(may_import(found[1], name) for name in reached):
                continue
            if other not in texts:
                texts[other] = other.read_text(encoding="utf-8")
            them, text = found[0], texts[other]
            cells, uses = reach(text, them.package, changed)
            for cell in cells:
                if (other, cell.cell) not in done:
                    done.add((other, cell.cell))
                    yield other, them.name, text, cell
            new = uses - changed.get(them.name, set())
            if new:
                changed.setdefault(them.name, set()).update(new)
                frontier.append(them.name)


def _imports_of(path: Path):
    """(Module, the dotted names it imports) of a file, read once per run while the file is unchanged (a
    fix over a model zoo asks this of every file for every changed one); None if it cannot be read."""
    try:
        stat = path.stat()
    except OSError:
        return None
    return _imports_read(str(path), stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=16384)  # a run's files, a few times over as they are written
def _imports_read(path: str, _mtime_ns: int, _size: int):
    from graphmend.verify.staging import locate
    from graphmend.verify.touched import imported_modules

    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    module = locate(Path(path))
    return module, imported_modules(text, module.package)


@dataclass
class Tally:
    """What `fix --verify --recorded` and `verify --recorded` say at the end: each touched Cell's fate."""

    proven: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    not_run: list[tuple[str, str]] = field(default_factory=list)  # (Cell, why its verification could not run)
    unverified: list[tuple[str, str]] = field(default_factory=list)  # (Cell, what the recording lacks)

    def add(self, cell: str, report: object) -> None:
        from graphmend.verify.recording import NotReached

        if isinstance(report, NotReached):
            self.unverified.append((cell, str(report)))
        elif isinstance(report, str):
            self.not_run.append((cell, report))
        elif report.passed:  # type: ignore[attr-defined]
            self.proven.append(cell)
        else:
            self.failed.append(cell)

    def lines(self) -> list[str]:
        total = len(self.proven) + len(self.failed) + len(self.not_run) + len(self.unverified)
        counts = (f"{len(self.proven)} proven, {len(self.failed)} failed, {len(self.not_run)} could not run, "
                  f"{len(self.unverified)} not verified from the recording")  # fmt: skip
        lines = [f"verified {total} Cell(s): {counts}"]
        lines += [f"  failed: {c}" for c in self.failed]
        lines += [f"  could not run: {c}: {why}" for c, why in self.not_run]
        lines += [f"  not verified: {c}: {why}" for c, why in self.unverified]
        return lines


def add_ignores(results: Sequence[FileResult]) -> Outcome:
    """Write a `# graphmend: ignore[...]` comment for every current finding (GM000 aside)."""
    from graphmend.suppressions import add_ignores as with_ignores

    outcome = Outcome(list(results))
    for result in results:
        findings = [f for f in result.findings if f.code != "GM000"]
        if result.error or not findings:
            continue
        updated = with_ignores(result.original.decode(result.encoding), findings).encode(result.encoding)
        try:
            compile(updated, result.path, "exec", dont_inherit=True)
            warning = write_atomic(Path(result.path), updated, result.original)
        except (SyntaxError, WriteError) as exc:
            outcome.failed.append(f"{result.path}: suppressions not added: {exc}")
            continue
        outcome.written.append(FileResult(result.path, tuple(findings), original=result.original, output=updated))
        if warning:
            outcome.warnings.append(warning)
    return outcome
