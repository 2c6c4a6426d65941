"""Inline suppressions, like ruff's `noqa` and Fixit's `lint-ignore`.

    x = Tensor(np.ones(s))  # graphmend: ignore[GM101]     this line, these rules
    # graphmend: ignore                                     the next line, every rule
    # graphmend: skip-file                                  the whole file (anywhere in it)

A suppression that silences nothing is itself reported (GM000), so stale ones do not pile up.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Sequence
from dataclasses import dataclass, field

from codemods.rule import Finding

UNUSED_CODE = "GM000"
UNUSED_NAME = "unused-suppression"

_STRING_TOKENS = {tokenize.STRING, getattr(tokenize, "FSTRING_MIDDLE", tokenize.STRING)}  # 3.12+ splits f-strings
_DIRECTIVE = re.compile(r"graphmend:\s*(skip-file|ignore)(?:\[([A-Za-z0-9_,\s]*)\])?")


@dataclass
class Suppression:
    line: int  # the line it applies to
    comment_line: int
    column: int
    codes: frozenset[str] | None  # None: every rule
    text: str
    used: set[str] = field(default_factory=set)

    def covers_code(self, code: str) -> bool:
        return self.codes is None or code in self.codes


@dataclass(frozen=True)
class Directives:
    skip_file: bool
    suppressions: tuple[Suppression, ...]


def parse_directives(code: str) -> Directives:
    """The graphmend comments of a file (`code` is its text; cheap when it has none)."""
    if "graphmend:" not in code:
        return Directives(False, ())
    skip, found = False, []
    lines = code.splitlines()
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(code).readline))
    except (tokenize.TokenError, SyntaxError):
        return Directives(False, ())
    for token in tokens:
        if token.type != tokenize.COMMENT:
            continue
        for match in _DIRECTIVE.finditer(token.string):
            if match.group(1) == "skip-file":
                skip = True
                continue
            line, column = token.start
            standalone = not lines[line - 1][:column].strip()
            codes = None
            if match.group(2) is not None:
                codes = frozenset(c.strip().upper() for c in match.group(2).split(",") if c.strip())
            target = line + 1 if standalone else line
            found.append(Suppression(target, line, column + 1, codes, token.string.strip()))
    return Directives(skip, tuple(found))


def apply(findings: Sequence[Finding], directives: Directives, path: str, selected: set[str]) -> list[Finding]:
    """`findings` (already filtered by the engine, which marks what each suppression silenced), plus a
    GM000 finding for every suppression that silenced nothing."""
    kept = list(findings)
    if UNUSED_CODE in selected and selected - {UNUSED_CODE}:
        kept += [_unused(s, path, selected) for s in directives.suppressions if _is_unused(s, selected)]
    return sorted(kept)


def _is_unused(suppression: Suppression, selected: set[str]) -> bool:
    if suppression.codes is None:
        return not suppression.used
    # a code whose rule did not run cannot be judged
    return bool(suppression.codes & selected) and not (suppression.codes & suppression.used)


def _unused(s: Suppression, path: str, selected: set[str]) -> Finding:
    what = "ignore" if s.codes is None else f"ignore[{','.join(sorted(s.codes))}]"
    return Finding(
        path=path,
        line=s.comment_line,
        column=s.column,
        code=UNUSED_CODE,
        name=UNUSED_NAME,
        end_line=s.comment_line,
        end_column=s.column + len(s.text),
        message=f"unused suppression `graphmend: {what}`: nothing is reported on line {s.line}; remove it",
    )


def add_ignores(code: str, findings: Sequence[Finding]) -> str:
    """`code` with `# graphmend: ignore[CODES]` appended to every line that has a finding.

    Lines that end inside a multi-line string cannot take a comment; they are left out.
    """
    by_line: dict[int, set[str]] = {}
    for finding in findings:
        if finding.code != UNUSED_CODE:
            by_line.setdefault(finding.line, set()).add(finding.code)
    lines = _physical_lines(code)
    blocked = _lines_ending_in_strings(code)
    for number, codes in by_line.items():
        if number in blocked or number > len(lines):
            continue
        line = lines[number - 1]
        body = line.rstrip("\r\n")
        newline = line[len(body) :]
        lines[number - 1] = f"{body}  # graphmend: ignore[{','.join(sorted(codes))}]{newline}"
    return "".join(lines)


def add_ignore(code: str, finding: Finding) -> str | None:
    """`code` with `finding`'s rule suppressed on its line: merged into the `ignore[...]` comment that
    already applies to that line, else a new comment at the line's end. None when no comment can go there
    (the line ends inside a multi-line string or a backslash, or the code does not tokenize), and for GM000
    (an unused suppression is removed, not suppressed)."""
    if finding.code == UNUSED_CODE:
        return None
    try:
        suppressions = parse_directives(code).suppressions
        blocked = _lines_ending_in_strings(code)
    except (tokenize.TokenError, SyntaxError):
        return None
    merged = next((s for s in suppressions if s.line == finding.line and s.codes is not None), None)
    if merged is not None:
        return _merge(code, merged, finding.code)
    if finding.line in blocked:
        return None
    updated = add_ignores(code, [finding])
    try:  # a line continued with a backslash cannot take a comment either
        compile(updated, finding.path, "exec", flags=ast.PyCF_ONLY_AST, dont_inherit=True)
    except (SyntaxError, ValueError):
        return None
    return updated


def _merge(code: str, suppression: Suppression, rule: str) -> str:
    lines = _physical_lines(code)
    line = lines[suppression.comment_line - 1]
    start = suppression.column - 1  # where the comment starts
    for match in _DIRECTIVE.finditer(line, start):
        if match.group(1) == "ignore" and match.group(2) is not None:
            codes = ",".join(sorted({*suppression.codes, rule}))  # type: ignore[misc]
            lines[suppression.comment_line - 1] = line[: match.start(2)] + codes + line[match.end(2) :]
            break
    return "".join(lines)


def _physical_lines(code: str) -> list[str]:
    # the lines tokenize numbers: str.splitlines would also split at a form feed or U+2028
    return io.StringIO(code, newline="").readlines()


def _lines_ending_in_strings(code: str) -> set[int]:
    blocked: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(code).readline):
        if token.type in _STRING_TOKENS and token.end[0] > token.start[0]:
            blocked.update(range(token.start[0], token.end[0]))
    return blocked
