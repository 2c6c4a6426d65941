"""Files in, results out: discovery, reading, one file's check or fix, and atomic writes.

Nothing here imports or runs user code: files are read as bytes and parsed by libcst.
"""

from __future__ import annotations

import ast
import difflib
import io
import os
import stat
import subprocess
import tempfile
import tokenize
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import libcst as cst

from codemods import engine
from codemods.config import Settings
from codemods.rule import Finding, Rule

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
    ignored_roots = {absolute(p) for p in _git_ignored([p for p in paths if p.is_dir()])}
    ignored = _git_ignored(files)
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


def process(path: Path, rules: Sequence[type[Rule]], fix: bool, unsafe: bool = False) -> FileResult:
    """Check (or fix, in memory) one file; every failure becomes a FileError, never an exception."""
    shown = str(path)
    try:
        data = path.read_bytes()
    except IsADirectoryError:
        return FileResult(shown, error=FileError(shown, "is a directory, not a Python file"))
    except OSError as exc:
        return FileResult(shown, error=FileError(shown, f"cannot read: {exc.strerror or exc}"))
    return process_source(shown, data, rules, fix, unsafe)


def process_source(shown: str, data: bytes, rules: Sequence[type[Rule]], fix: bool, unsafe: bool = False) -> FileResult:
    # CPython's parser first: it is fast, its messages are the ones users know, and it refuses code
    # nested too deeply before libcst's parser would spend minutes on it
    error = syntax_error(shown, data)
    if error is not None:
        return FileResult(shown, original=data, error=error)
    try:
        if not fix:
            findings = tuple(engine.check(data, shown, rules))
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
    return FileResult(shown, result.remaining, result.applied, data, output, encoding=_encoding(data))


def syntax_error(path: str, data: bytes) -> FileError | None:
    """Why CPython would not compile `data`, or None."""
    try:
        compile(data, path, "exec", flags=ast.PyCF_ONLY_AST, dont_inherit=True)
    except SyntaxError as exc:
        text = (exc.text or "").strip()
        detail = f" ({text[:60]}{'…' if len(text) > 60 else ''})" if text else ""
        return FileError(path, f"cannot parse: {exc.msg}{detail}", exc.lineno, exc.offset)
    except (ValueError, MemoryError) as exc:
        return FileError(path, f"cannot parse: {exc}")
    except RecursionError:
        return FileError(path, "cannot parse: nested too deeply for Python's compiler")
    return None


def _encoding(data: bytes) -> str:
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError:
        return "utf-8"
    return encoding


class WriteError(Exception):
    pass


def write_atomic(path: Path, data: bytes, expected: bytes) -> None:
    """Replace `path` with `data` unless it changed on disk since it was read as `expected`.

    The new content goes to a temporary file in the same directory, keeps the mode bits, and replaces
    the original with `os.replace`: a crash leaves either the old file or the new one, never half.
    A symlink is not followed: graphmend never writes outside the paths it was given.
    """
    if path.is_symlink():
        raise WriteError(f"{path}: is a symlink; not written (fix the file it points to directly)")
    try:
        if path.read_bytes() != expected:
            raise WriteError(f"{path}: changed on disk since graphmend read it; not written")
        mode = stat.S_IMODE(path.stat().st_mode)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".graphmend", dir=path.parent)
    except OSError as exc:
        raise WriteError(f"{path}: cannot write: {exc.strerror or exc}") from exc
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except OSError as exc:
        os.unlink(tmp)
        raise WriteError(f"{path}: cannot write: {exc.strerror or exc}") from exc
