"""Files in, results out: discovery, reading, one file's check or fix, and atomic writes.

Nothing here imports or runs user code: files are read as bytes and parsed by libcst.
"""

from __future__ import annotations

import difflib
import io
import os
import stat
import tempfile
import tokenize
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import libcst as cst

from codemods import engine
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


def _add(found: Discovery, seen: set[Path], path: Path) -> None:
    key = path.resolve() if path.exists() else path
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


def process_source(
    shown: str, data: bytes, rules: Sequence[type[Rule]], fix: bool, unsafe: bool = False
) -> FileResult:
    try:
        if not fix:
            findings = tuple(engine.check(data, shown, rules))
            return FileResult(shown, findings, original=data, encoding=_encoding(data))
        result = engine.fix(data, shown, rules, unsafe)
    except cst.ParserSyntaxError as exc:
        return FileResult(shown, original=data, error=FileError(shown, f"cannot parse: {exc.message}",
                                                                exc.raw_line, exc.raw_column + 1))
    except (UnicodeDecodeError, LookupError) as exc:  # LookupError: an unknown coding cookie
        return FileResult(shown, original=data, error=FileError(shown, f"cannot decode: {exc}"))
    except RecursionError:
        return FileResult(shown, original=data, error=FileError(shown, "too deeply nested for the parser"))
    except engine.FixError as exc:
        return FileResult(shown, original=data, error=FileError(shown, str(exc)))
    output = result.output if isinstance(result.output, bytes) else result.output.encode()
    return FileResult(shown, result.remaining, result.applied, data, output, encoding=_encoding(data))


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
