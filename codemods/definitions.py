"""Top-level functions a fix adds to the file it fixes, placed right after the module's leading imports.

A fix that needs more than an expression — a graph-native stand-in for a library function that cannot
be compiled (GM205's `weight_norm`) — names the function and gives its code; the code goes in once,
after the last line of the leading import block (before the first statement that is not an import), with
the two blank lines PEP 8 asks around a top-level `def`. A name the module already defines at the top
level is not added again: a second fix, or a second pass, changes nothing. Text in, text out: nothing
here runs the user's code or the added one.
"""

from __future__ import annotations

from collections.abc import Iterable

import libcst as cst

from graphmend.imports import block_start, is_import_line

_BLANK = cst.EmptyLine()


def add_definitions(module: cst.Module, definitions: Iterable[str]) -> cst.Module:
    """`module` with the top-level statements of each `definitions` text whose name it does not define."""
    defined = _defined(module.body)
    new: list[cst.BaseStatement] = []
    for text in dict.fromkeys(definitions):  # the same code asked for by two fixes goes in once
        statements = cst.parse_module(text).body
        if _defined(statements) & defined:
            continue
        defined |= _defined(statements)
        new += [s.with_changes(leading_lines=[_BLANK, _BLANK]) for s in statements]
    if not new:
        return module
    body = list(module.body)
    at = block_start(body)
    while at < len(body) and is_import_line(body[at]):
        at += 1
    if at < len(body):
        body[at] = _after_definition(body[at])
    if at == 0:  # the first lines of the file
        new[0] = new[0].with_changes(leading_lines=())
    changes = {} if body else {"has_trailing_newline": True}  # an empty file: ends as a file should
    return module.with_changes(body=[*body[:at], *new, *body[at:]], **changes)


def _defined(body: Iterable[cst.BaseStatement]) -> set[str]:
    return {s.name.value for s in body if isinstance(s, (cst.FunctionDef, cst.ClassDef))}


def _after_definition(statement: cst.BaseStatement) -> cst.BaseStatement:
    """`statement` with two blank lines before it, as after a top-level `def` (its comments stay)."""
    lines = list(statement.leading_lines)
    blank = 0
    while blank < len(lines) and lines[blank].comment is None:
        blank += 1
    if blank >= 2:
        return statement
    return statement.with_changes(leading_lines=[_BLANK] * (2 - blank) + lines)
