"""Make both versions importable as real modules under their real names.

MindSpore's GRAPH_MODE reads the source of `construct` from the module's file, and a module
that is not a registered, file-backed module fails to compile.
So each version is imported by its own worker under its real dotted name:

- *before* straight from the user's tree (workers write no bytecode, and run in a temp cwd);
- *after* from a mirror in a temp directory: the directories from the import root down to the
  module are recreated, every other entry in them is a symlink to the user's, and the module
  itself is the rewritten source (and so is each other rewritten file the request names, a
  helper module the fix changed). Relative imports, absolute imports of the package itself
  and data files next to the module all resolve as they do in the user's tree.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

SKIP = {"__pycache__"}


@dataclass(frozen=True)
class Module:
    """Where a module file is importable from."""

    path: Path  # absolute path of the .py file
    name: str  # dotted module name
    root: Path  # the sys.path entry it is importable from

    @property
    def package(self) -> str:
        """The dotted package the file is in ("" for a top-level module), read from its directories."""
        return ".".join(self.path.relative_to(self.root).parts[:-1])

    @property
    def top(self) -> Path:
        """The top-level package directory (or the file itself for a plain module)."""
        return self.root / self.path.relative_to(self.root).parts[0]


@dataclass(frozen=True)
class Version:
    """One version as a worker sees it."""

    module: Module
    sys_path: tuple[str, ...]
    user_roots: tuple[str, ...]  # files that count as the user's when blaming a line


def locate(path: Path, name: str | None = None) -> Module:
    """The module of a file: the given dotted name, else the chain of `__init__.py` above it."""
    path = path.resolve()
    if name is None:
        parts = [] if path.name == "__init__.py" else [path.stem]
        folder = path.parent
        while (folder / "__init__.py").is_file():
            parts.insert(0, folder.name)
            folder = folder.parent
        return Module(path, ".".join(parts), folder)
    depth = len(name.split(".")) + (1 if path.name == "__init__.py" else 0)
    return Module(path, name, path.parents[depth - 1])


def original_version(module: Module) -> Version:
    return Version(module, (str(module.root),), (str(module.top),))


def rewritten_version(module: Module, source: str, dest: Path, also: Sequence[tuple[Path, str]] = ()) -> Version:
    """Write the rewritten module into a mirror of its package under `dest`, with `also`: other rewritten
    files (path, source) of the same import root, each in place of its symlink (a helper module the fix
    changed, which the module imports)."""
    dest.mkdir(parents=True, exist_ok=True)
    _link_all(module.root, dest)
    written = _place(module.root, dest, module.path.relative_to(module.root), source)
    tops = [module.path.relative_to(module.root).parts[0]]
    for path, text in also:
        relative = Path(path).resolve().relative_to(module.root)  # ValueError: not below the root
        _place(module.root, dest, relative, text)
        tops += [relative.parts[0]] if relative.parts[0] not in tops else []
    mirrored = Module(written, module.name, dest)
    # MindSpore may report the symlink's target: the user's tops count as well
    roots = (*(str(dest / t) for t in tops), *(str(module.root / t) for t in tops))
    return Version(mirrored, (str(dest), str(module.root)), roots)


def _place(root: Path, dest: Path, relative: Path, source: str) -> Path:
    """Replace the mirror's symlink at `relative` with `source`: each directory on the way becomes a real
    one whose entries link to the user's."""
    user_dir, mirror_dir = root, dest
    for part in relative.parts[:-1]:
        user_dir, mirror_dir = user_dir / part, mirror_dir / part
        if mirror_dir.is_symlink():
            mirror_dir.unlink()
            mirror_dir.mkdir()
            _link_all(user_dir, mirror_dir)
    target = mirror_dir / relative.parts[-1]
    if target.is_symlink():
        target.unlink()
    target.write_text(source, encoding="utf-8")
    return target


def display_path(path: str, rewritten: Version, original: Module, label: str) -> str:
    """The path the user knows for a file a worker reported."""
    if os.path.abspath(path) == str(rewritten.module.path):
        return label
    mirror_root = str(rewritten.module.root)
    if path.startswith(mirror_root + os.sep):
        path = str(original.root) + path[len(mirror_root) :]
    return shown(path)


def _link_all(user_dir: Path, mirror_dir: Path) -> None:
    for entry in os.scandir(user_dir):
        if entry.name not in SKIP and not os.path.lexists(mirror_dir / entry.name):
            os.symlink(entry.path, mirror_dir / entry.name)


def shown(path: str) -> str:
    """A path relative to the working directory when it lies below it."""
    try:
        return os.path.relpath(path) if Path(path).resolve().is_relative_to(Path.cwd()) else path
    except (OSError, ValueError):
        return path
