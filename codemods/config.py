"""`[tool.graphmend]` in pyproject.toml, found from the checked paths upward (like ruff).

    [tool.graphmend]
    select = ["GM1", "GM2"]          # codes or prefixes; default: every default-on rule
    ignore = ["GM302"]
    unsafe-fixes = false
    exclude = ["third_party/**", "*_pb2.py"]
    per-file-ignores = { "tests/**" = ["GM101"] }
    max-file-size = 4                # MB; larger files with graph code are reported, not parsed

    [[tool.graphmend.verify]]        # what `graphmend fix --verify` proves before it writes
    cell = "models/head.py:Head"
    init = { dim = 16 }
    inputs = ["float32[B,5,16]"]

Command-line flags override the file.
"""

from __future__ import annotations

import fnmatch
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

KNOWN_KEYS = {"select", "ignore", "unsafe-fixes", "exclude", "per-file-ignores", "max-file-size", "verify"}


class ConfigError(Exception):
    pass


@dataclass(frozen=True)
class VerifyTarget:
    cell: str  # path/to/file.py:CellName, relative to the config's directory
    init: dict = field(default_factory=dict)
    inputs: tuple[str, ...] = ()

    def file(self, root: Path) -> Path:
        return (root / self.cell.rpartition(":")[0]).resolve()


@dataclass(frozen=True)
class Settings:
    root: Path  # the directory of the pyproject.toml (or the working directory without one)
    source: Path | None = None  # the pyproject.toml the settings came from
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    unsafe_fixes: bool = False
    exclude: tuple[str, ...] = ()
    per_file_ignores: dict[str, tuple[str, ...]] = field(default_factory=dict)
    max_file_size: float = 4.0  # MB
    verify: tuple[VerifyTarget, ...] = ()

    def is_excluded(self, path: Path) -> bool:
        return any(_glob_match(self._relative(path), pattern) for pattern in self.exclude)

    def ignored_for(self, path: Path) -> tuple[str, ...]:
        relative = self._relative(path)
        return tuple(code for glob, codes in self.per_file_ignores.items() if _glob_match(relative, glob)
                     for code in codes)  # fmt: skip

    def _relative(self, path: Path) -> str:
        absolute = Path(os.path.realpath(path))  # never raises, even on a symlink loop
        try:
            return absolute.relative_to(self.root).as_posix()
        except ValueError:
            return absolute.as_posix()


def find_config(paths: list[Path]) -> Path | None:
    """The nearest pyproject.toml with a [tool.graphmend] table, from the first path upward."""
    start = (paths[0] if paths else Path.cwd()).resolve()
    for directory in [start, *start.parents] if start.is_dir() else start.parents:
        candidate = directory / "pyproject.toml"
        if candidate.is_file() and "graphmend" in _read(candidate).get("tool", {}):
            return candidate
    return None


def load(paths: list[Path], explicit: Path | None = None) -> Settings:
    source = explicit or find_config(paths)
    if source is None:
        return Settings(root=Path.cwd().resolve())
    table = _read(source).get("tool", {}).get("graphmend", {})
    unknown = set(table) - KNOWN_KEYS
    if unknown:
        raise ConfigError(f"{source}: unknown key(s) in [tool.graphmend]: {', '.join(sorted(unknown))}")
    return Settings(
        root=source.parent.resolve(),
        source=source,
        select=tuple(_strings(table, "select", source)) if "select" in table else None,
        ignore=tuple(_strings(table, "ignore", source)),
        unsafe_fixes=bool(table.get("unsafe-fixes", False)),
        exclude=tuple(_strings(table, "exclude", source)),
        per_file_ignores={glob: tuple(codes) for glob, codes in table.get("per-file-ignores", {}).items()},
        max_file_size=float(table.get("max-file-size", 4.0)),
        verify=tuple(_verify_target(entry, source) for entry in table.get("verify", [])),
    )


def _read(path: Path) -> dict:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read: {exc}") from exc


def _strings(table: dict, key: str, source: Path) -> list[str]:
    value = table.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{source}: [tool.graphmend] {key} must be a list of strings")
    return value


def _verify_target(entry: dict, source: Path) -> VerifyTarget:
    if not isinstance(entry, dict) or ":" not in str(entry.get("cell", "")):
        raise ConfigError(f'{source}: each [[tool.graphmend.verify]] needs cell = "path/to/file.py:Cell"')
    return VerifyTarget(entry["cell"], dict(entry.get("init", {})), tuple(entry.get("inputs", ())))


def _glob_match(relative: str, pattern: str) -> bool:
    """fnmatch on the path relative to the config root; a pattern without `/` also matches any part."""
    if fnmatch.fnmatch(relative, pattern) or fnmatch.fnmatch(relative, pattern.rstrip("/") + "/*"):
        return True
    if "/" not in pattern.rstrip("/"):
        return any(fnmatch.fnmatch(part, pattern.rstrip("/")) for part in relative.split("/"))
    return False
