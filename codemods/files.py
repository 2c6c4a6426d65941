"""Files in, results out: discovery, reading, one file's check or fix, and atomic writes.

Nothing here imports or runs user code: files are read as bytes and parsed by libcst.
"""

from __future__ import annotations

import ast
import difflib
import io
import os
import re
import stat
import subprocess
import tempfile
import tokenize
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from graphmend import firstpass
from graphmend.config import Settings
from graphmend.finding import Finding

if TYPE_CHECKING:
    from graphmend.incremental import Reparser
    from graphmend.rule import Rule

# Directories never walked into (explicit file arguments are still read).
SKIP_DIRS = {".git", ".hg", ".svn", ".venv", "venv", "__pycache__", "node_modules", ".tox", ".nox",
             ".graphmend_cache", ".mypy_cache", ".pytest_cache", ".ruff_cache", "build", "dist"}  # fmt: skip


@dataclass(frozen=True)
class FileError:
    """A file graphmend could not handle: where, and why, in words a user can act on."""

    path: str
    message: str
    line: int | None = None
    column: int | None = None

    def location(self) -> str:
        where = self.path
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return where


@dataclass(frozen=True)
class FileResult:
    path: str
    findings: tuple[Finding, ...] = ()
    applied: tuple[Finding, ...] = ()
    original: bytes = b""
    output: bytes | None = None  # set by fix when the file changes
    error: FileError | None = None
    encoding: str = "utf-8"

    @property
    def changed(self) -> bool:
        return self.output is not None and self.output != self.original

    def diff(self) -> str:
        """A unified diff of the fix, `a/` and `b/` prefixed like git's."""
        if not self.changed:
            return ""
        before = self.original.decode(self.encoding).splitlines(keepends=True)
        after = self.output.decode(self.encoding).splitlines(keepends=True)  # type: ignore[union-attr]
        lines = difflib.unified_diff(before, after, f"a/{self.path}", f"b/{self.path}")
        return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)


@dataclass
class Discovery:
    files: list[Path] = field(default_factory=list)
    errors: list[FileError] = field(default_factory=list)


def discover(paths: Iterable[Path]) -> Discovery:
    """The `.py` files under `paths`, sorted, each once; missing paths become errors."""
    found = Discovery()
    seen: set[Path] = set()
    for path in paths:
        if not os.path.lexists(path):
            found.errors.append(FileError(str(path), "no such file or directory"))
        elif path.is_dir():
            for file in _walk(path):
                _add(found, seen, file)
        else:
            _add(found, seen, path)
    return found


def select_files(
    paths: Iterable[Path], settings: Settings, exclude: tuple[str, ...] = (), changed_since: str | None = None
) -> Discovery:
    """`discover`, less excluded and git-ignored files, and (with `changed_since`) unchanged ones."""
    paths = list(paths)
    found = discover(paths)
    patterns = (*settings.exclude, *exclude)
    files = [f for f in found.files if not (patterns and _excluded(f, settings, patterns))]
    # .gitignore prunes what a directory walk finds, like ruff: a file named on the command line is checked,
    # and so is everything under a named directory that is itself ignored (`graphmend check build/`)
    named = {absolute(p) for p in paths}
    directories = [p for p in paths if p.is_dir()]
    ignored = _git_ignored([*directories, *files])  # one git call per work tree for both
    ignored_roots = {absolute(p) for p in directories if p in ignored}
    files = [
        f
        for f in files
        if f not in ignored or absolute(f) in named or any(absolute(f).is_relative_to(r) for r in ignored_roots)
    ]
    if changed_since is not None:
        changed = _git_changed(changed_since, settings.root)
        if changed is None:
            found.errors.append(FileError(changed_since, "git cannot list the files changed since this revision"))
            changed = set()
        files = [f for f in files if real(f) in changed]
    return Discovery(files, found.errors)


def _excluded(path: Path, settings: Settings, patterns: tuple[str, ...]) -> bool:
    return Settings(root=settings.root, exclude=patterns).is_excluded(path)


def _git(cwd: Path, *args: str, stdin: str | None = None) -> str | None:
    try:
        done = subprocess.run(["git", *args], cwd=cwd, input=stdin, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout if done.returncode in (0, 1) else None


def _git_ignored(files: list[Path]) -> set[Path]:
    """The files (or directories) a .gitignore covers (none outside a git work tree)."""
    ignored: set[Path] = set()
    by_dir: dict[Path, list[Path]] = {}
    for f in files:
        by_dir.setdefault(absolute(f).parent, []).append(f)
    roots: dict[Path, list[Path]] = {}
    for directory, group in by_dir.items():
        # one `git rev-parse` per work tree, not per directory
        top = next((root for root in roots if directory.is_relative_to(root)), None)
        if top is None:
            out = _git(directory, "rev-parse", "--show-toplevel")
            top = Path(out.strip()) if out else None
        if top is not None:
            roots.setdefault(top, []).extend(group)
    for root, group in roots.items():
        listing = "\n".join(str(absolute(f)) for f in group)
        out = _git(root, "check-ignore", "--stdin", stdin=listing)
        ignored_paths = {Path(line) for line in (out or "").splitlines()}
        ignored.update(f for f in group if absolute(f) in ignored_paths)
    return ignored


def _git_changed(revision: str, cwd: Path) -> set[Path] | None:
    top = _git(cwd, "rev-parse", "--show-toplevel")
    diff = _git(cwd, "diff", "--name-only", "--diff-filter=ACMR", revision, "--")
    untracked = _git(cwd, "ls-files", "--others", "--exclude-standard", "--full-name")
    if top is None or diff is None or untracked is None:
        return None
    root = Path(top.strip())
    return {real(root / name) for name in (diff + untracked).splitlines() if name}


def real(path: Path) -> Path:
    """The path with symlinks resolved; a symlink loop stays as it is instead of raising."""
    return Path(os.path.realpath(path))


def absolute(path: Path) -> Path:
    return Path(os.path.abspath(path))


def _add(found: Discovery, seen: set[Path], path: Path) -> None:
    key = real(path)
    if key not in seen:
        seen.add(key)
        found.files.append(path)


def _walk(root: Path) -> Iterator[Path]:
    # followlinks=False: a symlinked directory is not entered, so loops cannot happen
    for directory, dirs, files in os.walk(root, followlinks=False):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith("."))
        for name in sorted(files):
            if name.endswith(".py"):
                yield Path(directory, name)


def read_source(path: Path, max_bytes: int) -> bytes | FileError:
    """The bytes of `path` if it is a regular file of at most `max_bytes`, else why not.

    Only regular files are read (a FIFO would block forever, /dev/zero never ends), and never more than
    the limit: whatever a file is, reading it costs at most `max_bytes` of memory and time.
    """
    shown = str(path)
    try:
        # O_NONBLOCK: a FIFO swapped in after the check below still cannot block the open
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except IsADirectoryError:
        return FileError(shown, "is a directory, not a Python file")
    except OSError as exc:
        return FileError(shown, f"cannot read: {exc.strerror or exc}")
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            return FileError(shown, "is a directory, not a Python file")
        if not stat.S_ISREG(info.st_mode):
            return FileError(shown, f"not read: is a {_file_kind(info.st_mode)}, not a regular file")
        if info.st_size > max_bytes:
            return too_large(shown, info.st_size, max_bytes)
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read(max_bytes + 1)
    except OSError as exc:
        return FileError(shown, f"cannot read: {exc.strerror or exc}")
    finally:
        os.close(fd)
    if len(data) > max_bytes:  # it grew since fstat
        return too_large(shown, len(data), max_bytes)
    return data


def too_large(shown: str, size: int, max_bytes: int) -> FileError:
    # CPython's parser alone takes seconds a megabyte on dense code, libcst far more
    message = f"not checked: {size / 1e6:.1f} MB is over the {max_bytes / 1e6:g} MB limit " \
              "(--max-file-size raises it; generated files are better excluded)"  # fmt: skip
    return FileError(shown, message)


def _file_kind(mode: int) -> str:
    kinds = ((stat.S_ISFIFO, "FIFO"), (stat.S_ISCHR, "character device"), (stat.S_ISBLK, "block device"),
             (stat.S_ISSOCK, "socket"))  # fmt: skip
    return next((name for test, name in kinds if test(mode)), "special file")


def process_source(
    shown: str,
    data: bytes,
    rules: Sequence[type[Rule]],
    fix: bool,
    unsafe: bool = False,
    incremental: Reparser | None = None,
) -> FileResult:
    # CPython's parser first: it is fast, its messages are the ones users know, and it refuses code
    # nested too deeply before libcst's parser would spend minutes on it
    tree, error = cpython_tree(shown, data)
    if error is not None:
        return FileResult(shown, original=data, error=error)
    if not firstpass.may_have_findings(tree, data, rules):  # type: ignore[arg-type]
        return FileResult(shown, original=data, encoding=_encoding(data))  # nothing to find: libcst never runs
    import libcst as cst  # here, not at the top: a run whose files all come from the cache never needs it

    from graphmend import engine

    try:
        if not fix:
            findings = tuple(engine.check(data, shown, rules, incremental))
            return FileResult(shown, findings, original=data, encoding=_encoding(data))
        result = engine.fix(data, shown, rules, unsafe)
    except cst.ParserSyntaxError as exc:
        return FileResult(
            shown,
            original=data,
            error=FileError(shown, f"cannot parse: {exc.message}", exc.raw_line, exc.raw_column + 1),
        )
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        message = f"cannot decode: byte {data[exc.start:exc.start + 1]!r} is not {exc.encoding}; " \
                  "declare the file's encoding with a coding cookie (# -*- coding: gbk -*-)"  # fmt: skip
        return FileResult(shown, original=data, error=FileError(shown, message, line))
    except LookupError as exc:  # an unknown coding cookie
        return FileResult(shown, original=data, error=FileError(shown, f"cannot decode: {exc}"))
    except RecursionError:
        return FileResult(shown, original=data, error=FileError(shown, "too deeply nested for the parser"))
    except engine.FixError as exc:
        return FileResult(shown, original=data, error=FileError(shown, str(exc)))
    output = result.output if isinstance(result.output, bytes) else result.output.encode()
    if output != data and not result.reproduces:
        # libcst does not print every file back as it read it (a final `\r` of CR-only line endings):
        # a fix would change bytes outside the expressions it rewrites
        message = "not fixed: libcst does not reproduce this file byte for byte (unusual line endings or " \
                  "whitespace); normalise its line endings to fix it"  # fmt: skip
        return FileResult(shown, result.remaining + result.applied, (), data, encoding=_encoding(data),
                          error=FileError(shown, message))  # fmt: skip
    return FileResult(shown, result.remaining, result.applied, data, output, encoding=_encoding(data))


def syntax_error(path: str, data: bytes) -> FileError | None:
    """Why CPython would not compile `data`, or None."""
    return cpython_tree(path, data)[1]


def cpython_tree(path: str, data: bytes) -> tuple[ast.Module | None, FileError | None]:
    """CPython's syntax tree of `data` (graphmend.firstpass reads it), or why it would not compile."""
    try:
        return compile(data, path, "exec", flags=ast.PyCF_ONLY_AST, dont_inherit=True), None
    except SyntaxError as exc:
        text = (exc.text or "").strip()
        detail = f" ({text[:60]}{'…' if len(text) > 60 else ''})" if text else ""
        return None, FileError(path, f"cannot parse: {exc.msg}{detail}", exc.lineno, exc.offset)
    except (ValueError, MemoryError) as exc:
        return None, FileError(path, f"cannot parse: {exc}")
    except RecursionError:
        return None, FileError(path, "cannot parse: nested too deeply for Python's compiler")


def _encoding(data: bytes) -> str:
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError:
        return "utf-8"
    return encoding


class WriteError(Exception):
    pass


TEMP_SUFFIX = ".graphmend"
# `.<name>.<pid>.<8 random characters>.graphmend`: the pid tells a stale temp file from one being written
_TEMP = re.compile(r"^\.(?P<name>.*)\.(?P<pid>\d+)\.[A-Za-z0-9_]{8}" + re.escape(TEMP_SUFFIX) + "$")


def write_atomic(path: Path, data: bytes, expected: bytes) -> str | None:
    """Replace `path` with `data` unless it changed on disk since it was read as `expected`.

    The new content goes to a temporary file in the same directory, with the mode bits, owner and group
    of the original, and replaces it with `os.replace`: a crash leaves either the old file or the new one,
    never half. The file is compared with `expected` again right before the replace, so an edit saved
    while graphmend wrote is not lost. Never written: a symlink (graphmend never writes outside the paths
    it was given), a read-only file, a file whose owner cannot be kept. Returns a warning to show, or None.
    """
    if path.is_symlink():
        raise WriteError(f"{path}: is a symlink; not written (fix the file it points to directly)")
    try:
        info = os.stat(path)
        _check_writable(path, info)
        if _read_all(path) != expected:
            raise WriteError(f"{path}: changed on disk since graphmend read it; not written")
        remove_stale_temps(path.parent)
        fd, tmp = tempfile.mkstemp(prefix=_temp_prefix(path), suffix=TEMP_SUFFIX, dir=path.parent)
    except OSError as exc:
        raise WriteError(f"{path}: cannot write: {exc.strerror or exc}") from exc
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, stat.S_IMODE(info.st_mode))
        if (info.st_uid, info.st_gid) != (os.geteuid(), os.getegid()):
            _keep_owner(path, tmp, info)
        if _read_all(path) != expected:
            raise WriteError(f"{path}: changed on disk while graphmend wrote it; not written (your edit is kept)")
        os.replace(tmp, path)
    except (OSError, WriteError) as exc:
        os.unlink(tmp)
        if isinstance(exc, WriteError):
            raise
        raise WriteError(f"{path}: cannot write: {exc.strerror or exc}") from exc
    if info.st_nlink > 1:
        # writing in place would change every name, e.g. a conda environment's hard links into its package
        # cache; the replace gives this name its own file instead
        return f"{path}: had {info.st_nlink - 1} other hard link(s); they keep the old content"
    return None


def _check_writable(path: Path, info: os.stat_result) -> None:
    if not stat.S_ISREG(info.st_mode):
        raise WriteError(f"{path}: not a regular file; not written")
    if not info.st_mode & stat.S_IWUSR:
        # root may write anything, but a read-only file says "do not change me" (ruff skips it too)
        mode = stat.S_IMODE(info.st_mode)
        raise WriteError(f"{path}: is read-only (mode {mode:04o}); not written (chmod u+w to let graphmend fix it)")


def _keep_owner(path: Path, tmp: str, info: os.stat_result) -> None:
    try:
        os.chown(tmp, info.st_uid, info.st_gid)
    except PermissionError as exc:
        raise WriteError(f"{path}: owned by uid {info.st_uid}, gid {info.st_gid}, which this user cannot give "
                         "a new file; not written") from exc  # fmt: skip


def _read_all(path: Path) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()


def _temp_prefix(path: Path) -> str:
    """`.<name>.<pid>.`, the name shortened so that the whole temp name fits the file system's limit."""
    try:
        limit = os.pathconf(path.parent, "PC_NAME_MAX")
    except (OSError, ValueError):
        limit = 255
    tail = f".{os.getpid()}."
    room = limit - len(tail) - 1 - 8 - len(TEMP_SUFFIX)  # the dot, mkstemp's 8 characters, the suffix
    name = os.fsencode(path.name)[: max(room, 1)]
    return "." + os.fsdecode(name) + tail


_swept: set[Path] = set()


def remove_stale_temps(directory: Path) -> list[Path]:
    """Remove the temp files a killed graphmend left in `directory` (their process is gone), once a run."""
    removed: list[Path] = []
    if directory in _swept:
        return removed
    _swept.add(directory)
    try:
        names = os.listdir(directory)
    except OSError:
        return removed
    for name in names:
        match = _TEMP.match(name)
        if match is None or int(match["pid"]) == os.getpid() or process_alive(int(match["pid"])):
            continue
        candidate = directory / name
        try:
            info = os.lstat(candidate)
            if stat.S_ISREG(info.st_mode) and info.st_uid == os.geteuid():
                candidate.unlink()
                removed.append(candidate)
        except OSError:
            pass
    return removed


def process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True  # another user's process, or not a pid: not ours to judge
    return True
