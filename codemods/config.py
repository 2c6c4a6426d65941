"""`[tool.graphmend]` in pyproject.toml, found from the checked paths upward (like ruff).

    [tool.graphmend]
    select = ["GM1", "GM2"]          # codes or prefixes; default: every default-on rule
    ignore = ["GM302"]
    unsafe-fixes = false
    exclude = ["third_party/**", "*_pb2.py"]
    per-file-ignores = { "tests/**" = ["GM101"] }
    max-file-size = 4                # MB (> 0, at most 1024); larger files are reported, not read
    target = ["graph"]               # graph, strict, dynamic, export; default: what the code asks for

    [[tool.graphmend.verify]]        # what `graphmend fix --verify` proves before it writes
    cell = "models/head.py:Head"
    init = { dim = 16 }
    inputs = ["float32[B,5,16]"]

Command-line flags override the file. Every value is checked for its type and range when the file is loaded: a
wrong one raises ConfigError naming the file, the key, what was expected and what was found, e.g.
`pyproject.toml: [tool.graphmend] unsafe-fixes: expected true or false, got "false"` (the CLI prints it and
exits 2). Rule codes are only checked to be strings here; the CLI checks that they exist. An unknown key is not
an error but a message in Settings.warnings, with the closest known key (like ruff), so that a config written
for another version of graphmend still loads.
"""

from __future__ import annotations

import datetime
import difflib
import fnmatch
import json
import math
import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from graphmend import targets as deploy_targets

KNOWN_KEYS = ("select", "ignore", "unsafe-fixes", "exclude", "per-file-ignores", "max-file-size", "target", "verify")
VERIFY_KEYS = ("cell", "init", "inputs")
DEFAULT_MAX_FILE_SIZE = 4.0  # MB
MAX_FILE_SIZE = 1024  # MB: the limit exists to skip huge generated files; a bigger one is a typo, not a choice
CELL_FORMAT = '"path/to/file.py:Cell"'


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
    max_file_size: float = DEFAULT_MAX_FILE_SIZE  # MB
    verify: tuple[VerifyTarget, ...] = ()
    target: frozenset[deploy_targets.Target] | None = None  # None: what the checked code asks for (graphmend.deploy)
    warnings: tuple[str, ...] = ()  # one line each, "<path>: [tool.graphmend] unknown key ..."; for the CLI to print

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
    start = _resolve(paths[0] if paths else Path("."))
    # os.path.isdir/isfile, not Path's: those raise PermissionError under a directory that cannot be searched
    for directory in [start, *start.parents] if os.path.isdir(start) else start.parents:
        candidate = directory / "pyproject.toml"
        if os.path.isfile(candidate) and "graphmend" in _tool_table(_read(candidate)):
            return candidate
    return None


def load(paths: list[Path], explicit: Path | None = None) -> Settings:
    """The settings of the nearest (or the explicit) config; ConfigError on a file or value that is wrong."""
    source = explicit or find_config(paths)
    if source is None:
        return Settings(root=_resolve(Path(".")))
    table = _tool_table(_read(source)).get("graphmend", {})
    where = f"{source}: [tool.graphmend]"
    if not isinstance(table, dict):
        raise ConfigError(f"{where}: expected a table, got {_toml(table)}")
    targets, verify_warnings = _verify_targets(table.get("verify", []), source)
    return Settings(
        root=_resolve(source.parent),
        source=source,
        select=_strings(table["select"], where, "select") if "select" in table else None,
        ignore=_strings(table.get("ignore", []), where, "ignore"),
        unsafe_fixes=_boolean(table.get("unsafe-fixes", False), where, "unsafe-fixes"),
        exclude=_strings(table.get("exclude", []), where, "exclude"),
        per_file_ignores=_per_file_ignores(table.get("per-file-ignores", {}), where),
        max_file_size=_megabytes(table.get("max-file-size", DEFAULT_MAX_FILE_SIZE), where, "max-file-size"),
        verify=targets,
        target=_targets(table["target"], where) if "target" in table else None,
        warnings=(*_unknown_keys(table, KNOWN_KEYS, where), *verify_warnings),
    )


# -- reading ---------------------------------------------------------------------------------------


def _resolve(path: Path) -> Path:
    try:
        return path.resolve()
    except OSError as exc:  # the working directory was deleted under us
        raise ConfigError(f"{path}: cannot resolve: {exc.strerror or exc}") from exc


def _read(path: Path) -> dict:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: cannot read: not UTF-8 ({exc})") from exc
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    try:
        return tomllib.loads(text)
    except RecursionError as exc:  # tomllib recurses once per nested array or inline table
        raise ConfigError(f"{path}: invalid TOML: nested too deeply") from exc
    except ValueError as exc:  # TOMLDecodeError, and an integer longer than Python's 4300-digit limit
        raise ConfigError(f"{path}: invalid TOML: {exc}") from exc


def _tool_table(document: dict) -> dict:
    """[tool], or nothing when it is not a table: then it cannot hold [tool.graphmend] (and is not ours to judge)."""
    tool = document.get("tool", {})
    return tool if isinstance(tool, dict) else {}


# -- checking one value ----------------------------------------------------------------------------


def _invalid(where: str, key: str, expected: str, value: object) -> ConfigError:
    return ConfigError(f"{where} {key}: expected {expected}, got {_toml(value)}")


def _is_strings(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _strings(value: object, where: str, key: str) -> tuple[str, ...]:
    if not _is_strings(value):
        raise _invalid(where, key, "a list of strings", value)
    return tuple(value)


def _boolean(value: object, where: str, key: str) -> bool:
    if not isinstance(value, bool):  # bool("false") is True: a string must not slip through
        raise _invalid(where, key, "true or false", value)
    return value


def _megabytes(value: object, where: str, key: str) -> float:
    # bool is an int to Python; nan fails every comparison, so `0 < value` rejects it; an int is compared before
    # float() so that a 4000-digit one is rejected instead of raising OverflowError
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= MAX_FILE_SIZE:
        raise _invalid(where, key, f"a number of megabytes > 0 and <= {MAX_FILE_SIZE}", value)
    return float(value)


def _targets(value: object, where: str) -> frozenset[deploy_targets.Target]:
    expected = f"a list of {', '.join(t.value for t in deploy_targets.Target)}"
    if not _is_strings(value) or not value:
        raise _invalid(where, "target", expected, value)
    try:
        return deploy_targets.parse(value, "target")  # type: ignore[arg-type]
    except deploy_targets.TargetError:
        raise _invalid(where, "target", expected, value) from None


def _per_file_ignores(value: object, where: str) -> dict[str, tuple[str, ...]]:
    if not isinstance(value, dict):
        raise _invalid(where, "per-file-ignores", "a table of glob = [codes]", value)
    return {glob: _strings(codes, where, f"per-file-ignores.{_toml_key(glob)}") for glob, codes in value.items()}


def _unknown_keys(table: dict, known: tuple[str, ...], where: str) -> list[str]:
    """A warning for every key not in `known`, in the file's order, with the closest known key if there is one."""
    warnings = []
    for key in table:
        if key not in known:
            close = difflib.get_close_matches(key, known, n=1)
            hint = f" (did you mean {_toml(close[0])}?)" if close else ""
            warnings.append(f"{where} unknown key {_toml(key)}{hint}")
    return warnings


# -- [[tool.graphmend.verify]] ---------------------------------------------------------------------


def _verify_targets(value: object, source: Path) -> tuple[tuple[VerifyTarget, ...], list[str]]:
    """The targets, and a warning for every unknown key in them."""
    if not isinstance(value, list):  # `[tool.graphmend.verify]` (one bracket) is a table, not an array of them
        raise _invalid(f"{source}: [tool.graphmend]", "verify", "an array of tables [[tool.graphmend.verify]]", value)
    targets, warnings = [], []
    for number, entry in enumerate(value, start=1):
        where = f"{source}: [[tool.graphmend.verify]] #{number}"
        targets.append(_verify_target(entry, where))
        warnings += _unknown_keys(entry, VERIFY_KEYS, where)
    return tuple(targets), warnings


def _verify_target(entry: object, where: str) -> VerifyTarget:
    if not isinstance(entry, dict):
        raise ConfigError(f"{where}: expected a table with cell = {CELL_FORMAT}, got {_toml(entry)}")
    if "cell" not in entry:
        raise ConfigError(f"{where}: missing cell = {CELL_FORMAT}")
    cell, init, inputs = entry["cell"], entry.get("init", {}), entry.get("inputs", [])
    file, _, name = cell.rpartition(":") if isinstance(cell, str) else ("", "", "")
    if not (file and name):
        raise _invalid(where, "cell", CELL_FORMAT, cell)
    if not isinstance(init, dict):
        raise _invalid(where, "init", "a table of keyword arguments", init)
    if not _is_strings(inputs):
        raise _invalid(where, "inputs", "a list of strings", inputs)
    return VerifyTarget(cell, dict(init), tuple(inputs))


# -- quoting what was found ------------------------------------------------------------------------


def _toml(value: object, limit: int = 80) -> str:
    """`value` as TOML would spell it, cut to `limit` characters: a message quotes the user's own syntax."""
    text = _toml_value(value, depth=0)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _toml_value(value: object, depth: int) -> str:
    if depth > 3:  # bounded, so that quoting a huge or deeply nested value costs nothing
        return "..."
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # TOML's basic strings escape like JSON's
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, list):
        items = [_toml_value(item, depth + 1) for item in value[:10]]
        return "[" + ", ".join(items + (["..."] if len(value) > 10 else [])) + "]"
    if isinstance(value, dict):
        if not value:
            return "{}"
        pairs = [f"{_toml_key(k)} = {_toml_value(v, depth + 1)}" for k, v in list(value.items())[:10]]
        return "{ " + ", ".join(pairs + (["..."] if len(value) > 10 else [])) + " }"
    if isinstance(value, datetime.date | datetime.time):  # a datetime is a date
        return value.isoformat()
    return repr(value)


def _toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else json.dumps(key, ensure_ascii=False)


def _glob_match(relative: str, pattern: str) -> bool:
    """fnmatch on the path relative to the config root; a pattern without `/` also matches any part."""
    if fnmatch.fnmatch(relative, pattern) or fnmatch.fnmatch(relative, pattern.rstrip("/") + "/*"):
        return True
    if "/" not in pattern.rstrip("/"):
        return any(fnmatch.fnmatch(part, pattern.rstrip("/")) for part in relative.split("/"))
    return False


# -- the formatter's line length (what `fix` compares the lines it writes with) --------------------


def formatter_line_length(root: Path) -> tuple[int, str] | None:
    """The line length of the project's formatter and where it is set: `line-length` of ruff (ruff.toml,
    .ruff.toml or [tool.ruff]) or of black ([tool.black]) in the nearest file from `root` upward that sets
    one; None when none does (graphmend does not guess a formatter)."""
    for directory in [root, *root.parents]:
        for name, tables in (("ruff.toml", ()), (".ruff.toml", ()), ("pyproject.toml", ("ruff", "black"))):
            candidate = directory / name
            if not os.path.isfile(candidate):
                continue
            try:
                document = _read(candidate)
            except ConfigError:
                continue
            for table in tables or ("",):
                values = _tool_table(document).get(table, {}) if table else document
                length = values.get("line-length") if isinstance(values, dict) else None
                if isinstance(length, int) and not isinstance(length, bool) and length > 0:
                    return length, f"{(table or 'ruff')} line-length in {candidate}"
    return None
