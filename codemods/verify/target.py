"""TARGET on the command line: `path/to/file.py:CellName` or `package.module:CellName`.

Resolved without importing anything: importing the user's package here could import MindSpore
into the parent process.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .api import UsageError

USAGE = "TARGET must read path/to/file.py:CellName or package.module:CellName"


@dataclass(frozen=True)
class Target:
    path: Path
    cell: str
    module: str | None  # the dotted name, when the target was given as one


def parse_target(text: str, python: str) -> Target:
    spec, sep, cell = text.rpartition(":")
    if not sep or not spec or not cell.isidentifier():
        raise UsageError(f"bad TARGET {text!r}: {USAGE}")
    if spec.endswith(".py") or "/" in spec or os.sep in spec:
        target = Target(_existing(Path(spec), text), cell, None)
    elif all(part.isidentifier() for part in spec.split(".")):
        target = Target(_find_module(spec, python), cell, spec)
    else:
        raise UsageError(f"bad TARGET {text!r}: {USAGE}")
    _require_cell(target)
    return target


def _existing(path: Path, text: str) -> Path:
    if not path.is_file():
        raise UsageError(f"bad TARGET {text!r}: {path} is not a file")
    return path.resolve()


def _find_module(name: str, python: str) -> Path:
    parts = name.split(".")
    for root in _roots(python):
        base = root.joinpath(*parts)
        for candidate in (base.with_name(parts[-1] + ".py"), base / "__init__.py"):
            if candidate.is_file():
                return candidate.resolve()
    raise UsageError(f"bad TARGET: module {name} is not in the current directory nor on {python}'s sys.path")


def _roots(python: str) -> Iterator[Path]:
    """The working directory, then the interpreter's sys.path (asked only when needed)."""
    yield Path.cwd()
    yield from map(Path, _search_path(python))


def _search_path(python: str) -> list[str]:
    """The interpreter's sys.path, asked without importing anything of the user's."""
    try:
        done = subprocess.run(
            [python, "-c", "import json, sys; print(json.dumps(sys.path[1:]))"],
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        raise UsageError(f"--python {python}: cannot run it ({exc})") from None
    return [p for p in json.loads(done.stdout) if p]


def _require_cell(target: Target) -> None:
    """The Cell must be defined or imported at module level (a star import may bring it too)."""
    try:
        tree = ast.parse(target.path.read_text(encoding="utf-8"), str(target.path))
    except SyntaxError as exc:
        raise UsageError(f"{target.path}:{exc.lineno}: the original does not parse: {exc.msg}") from None
    names = set()
    for node in tree.body:
        if isinstance(node, ast.ClassDef | ast.FunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update(alias.asname or alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    if target.cell not in names and "*" not in names:
        raise UsageError(f"bad TARGET: {target.path} defines no {target.cell}")
