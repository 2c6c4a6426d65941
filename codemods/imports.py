"""The imports a fix needs, added where isort (and ruff's `I` rules, with their defaults) would put them.

`from mindspore import ops` joins an existing `from mindspore import …` line, at its sorted place when the
names there are sorted; a new statement goes into the module's leading import block, in its section
(`__future__`, standard library, third party, relative), straight imports before `from` imports and each
kind by module name — `import mindspore` before `import numpy as np`, both before
`from mindspore import nn`. A file whose imports are not sorted gets the new line before the first line of
its section that would sort after it (or after the section's last line): a stable place, so that fixes
applied one by one (the JSON edits, applied ruff-style) give the file that `fix` writes in one go.
Nothing here imports anything of the user's; it is text in, text out.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable

import libcst as cst

from graphmend.calls import dotted_name
from graphmend.finding import Import
from graphmend.names import dotted

_FUTURE, _STDLIB, _THIRD_PARTY, _LOCAL = range(4)


def add_imports(module: cst.Module, imports: Iterable[Import], *, new: bool = True, join: bool = True) -> cst.Module:
    """`module` with each of `imports` present (those already imported are left as they are).

    `new=False` leaves out the new import lines, `join=False` the names joined to existing lines: the two
    halves change disjoint lines, so that their text edits can be given apart (see engine.import_edits).
    """
    for module_name, name in sorted(set(imports), key=lambda i: (i[0], i[1] or "")):
        if name:
            module = _add_from(module, module_name, name, new, join)
        elif new:
            module = _add_import(module, module_name)
    return module


def _add_import(module: cst.Module, module_name: str) -> cst.Module:
    for statement in _import_statements(module.body):
        small = statement.body[0]
        if isinstance(small, cst.Import) and any(
            alias.asname is None and _dotted(alias.name) == module_name for alias in small.names
        ):
            return module
    line = cst.SimpleStatementLine([cst.Import([cst.ImportAlias(dotted(module_name))])])
    return _insert(module, line, (_section(module_name, 0), 0, module_name.lower()))


def _add_from(module: cst.Module, module_name: str, name: str, new: bool, join: bool) -> cst.Module:
    target: cst.SimpleStatementLine | None = None
    for statement in _import_statements(module.body):
        small = statement.body[0]
        if not isinstance(small, cst.ImportFrom) or small.relative or small.module is None:
            continue
        if _dotted(small.module) != module_name or isinstance(small.names, cst.ImportStar):
            continue
        if any(alias.asname is None and _dotted(alias.name) == name for alias in small.names):
            return module
        if target is None or _aliased(target) and not _aliased(statement):
            target = statement  # as isort keeps them: `from m import a as b` on a line of its own
    if target is not None:
        if not join:
            return module
        return module.with_changes(body=[_with_name(s, name) if s is target else s for s in module.body])
    if not new:
        return module
    line = cst.SimpleStatementLine(
        [cst.ImportFrom(module=dotted(module_name), names=[cst.ImportAlias(cst.Name(name))])]
    )
    return _insert(module, line, (_section(module_name, 0), 1, module_name.lower()))


def _aliased(statement: cst.SimpleStatementLine) -> bool:
    small = statement.body[0]
    return (
        isinstance(small, cst.ImportFrom)
        and not isinstance(small.names, cst.ImportStar)
        and any(alias.asname is not None for alias in small.names)
    )


def _with_name(statement: cst.SimpleStatementLine, name: str) -> cst.SimpleStatementLine:
    """`from m import a, c` + `b` → `from m import a, b, c` (sorted names), else appended at the end."""
    small = statement.body[0]
    assert isinstance(small, cst.ImportFrom) and not isinstance(small.names, cst.ImportStar)
    names = list(small.names)
    keys = [_member_key(_dotted(alias.name)) for alias in names]
    at = len(names)
    if keys == sorted(keys):
        at = next((i for i, key in enumerate(keys) if key > _member_key(name)), len(names))
    new = cst.ImportAlias(cst.Name(name))
    separator = next(
        (a.comma for a in names[:-1] if isinstance(a.comma, cst.Comma)),
        cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")),
    )
    if at == len(names):
        last = names[-1]
        if isinstance(last.comma, cst.Comma):  # a trailing comma (a parenthesized, one-name-a-line import)
            names[-1], new = last.with_changes(comma=separator), new.with_changes(comma=last.comma)
        else:
            names[-1] = last.with_changes(comma=separator)
    else:
        new = new.with_changes(comma=separator)
    names.insert(at, new)
    return statement.with_changes(body=[small.with_changes(names=names), *statement.body[1:]])


def _insert(module: cst.Module, line: cst.SimpleStatementLine, key: tuple) -> cst.Module:
    body = list(module.body)
    start = block_start(body)
    block = []  # (index, key) of the leading import block
    for index in range(start, len(body)):
        statement = body[index]
        found = _statement_key(statement)
        if found is None:
            break
        block.append((index, found))
    section = key[0]
    same = [(i, k) for i, k in block if k[0] == section]
    empty = cst.EmptyLine()
    if same:
        after = next((i for i, k in same if k > key), None)
        if after is None:
            body.insert(same[-1][0] + 1, line)
        else:
            body[after:after + 1] = [line.with_changes(leading_lines=body[after].leading_lines),
                                     body[after].with_changes(leading_lines=())]  # fmt: skip
    elif lower := [i for i, k in block if k[0] < section]:
        body.insert(lower[-1] + 1, line.with_changes(leading_lines=[empty]))
    elif block:
        first = block[0][0]
        body[first:first + 1] = [line.with_changes(leading_lines=body[first].leading_lines),
                                 body[first].with_changes(leading_lines=[empty])]  # fmt: skip
    else:
        body.insert(start, line)
    return module.with_changes(body=body)


def block_start(body: list[cst.BaseStatement]) -> int:
    """Where the leading import block starts: after the module docstring."""
    if body and isinstance(body[0], cst.SimpleStatementLine):
        first = body[0].body[0]
        if isinstance(first, cst.Expr) and isinstance(first.value, (cst.SimpleString, cst.ConcatenatedString)):
            return 1
    return 0


def is_import_line(statement: cst.BaseStatement) -> bool:
    """A line of the leading import block: one import statement."""
    return _statement_key(statement) is not None


def _statement_key(statement: cst.BaseStatement) -> tuple | None:
    """isort's order of an import line: (section, straight before `from`, module); None if not one."""
    if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
        return None
    small = statement.body[0]
    if isinstance(small, cst.Import):
        module = _dotted(small.names[0].name)
        return _section(module, 0), 0, module.lower()
    if isinstance(small, cst.ImportFrom):
        module = _dotted(small.module) if small.module is not None else ""
        return _section(module, len(small.relative)), 1, module.lower()
    return None


def _import_statements(body: Iterable[cst.BaseStatement]) -> Iterable[cst.SimpleStatementLine]:
    """The module-level lines that are one import statement."""
    for statement in body:
        if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1:
            if isinstance(statement.body[0], (cst.Import, cst.ImportFrom)):
                yield statement


def _section(module: str, level: int) -> int:
    if level:
        return _LOCAL
    top = module.partition(".")[0]
    if top == "__future__":
        return _FUTURE
    return _STDLIB if top in sys.stdlib_module_names else _THIRD_PARTY


def _member_key(name: str) -> tuple[int, str]:
    """isort's `order_by_type`: CONSTANTS, then Classes, then the rest; case-insensitively within each."""
    kind = 0 if name.isupper() and len(name) > 1 else 1 if name[:1].isupper() else 2
    return kind, name.lower()


def _dotted(node: cst.CSTNode) -> str:
    return dotted_name(node) or ""  # type: ignore[arg-type]
