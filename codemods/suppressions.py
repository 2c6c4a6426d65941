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

from graphmend.finding import Edit, Finding

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
    code: str = ""

    def lines(self) -> list[str]:
        return physical_lines(self.code)


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
    return Directives(skip, tuple(found), code)


def apply(findings: Sequence[Finding], directives: Directives, path: str, selected: set[str]) -> list[Finding]:
    """`findings` (already filtered by the engine, which marks what each suppression silenced), plus a
    GM000 finding for every suppression that silences nothing, or names a code that silences nothing."""
    kept = list(findings)
    if UNUSED_CODE in selected and selected - {UNUSED_CODE} and directives.suppressions:
        reported: dict[int, set[str]] = {}
        for finding in findings:
            reported.setdefault(finding.line, set()).add(finding.code)
        lines = directives.lines()
        for s in directives.suppressions:
            unused = _unused_codes(s, selected)
            if unused is not None:
                kept.append(_unused(s, unused, path, reported.get(s.line, set()), lines[s.comment_line - 1]))
    return sorted(kept)


def _unused_codes(suppression: Suppression, selected: set[str]) -> frozenset[str] | None:
    """What of the suppression silences nothing: None (nothing: it is used), an empty set (the whole bare
    `ignore`), or its codes that silence nothing. A code whose rule did not run cannot be judged."""
    if suppression.codes is None:
        return None if suppression.used else frozenset()
    unused = (suppression.codes & selected) - suppression.used
    return unused or None


def _unused(s: Suppression, unused: frozenset[str], path: str, reported: set[str], line: str) -> Finding:
    what = "ignore" if s.codes is None else f"ignore[{','.join(sorted(s.codes))}]"
    if s.codes is None or unused == s.codes:
        there = f"{', '.join(sorted(reported))} {'is' if len(reported) == 1 else 'are'}" if reported else ""
        why = f"nothing is reported on line {s.line}" if not reported else (
            f"no rule it names is reported on line {s.line} ({there})")  # fmt: skip
        message = f"unused suppression `graphmend: {what}`: {why}; remove it"
    else:
        names = ", ".join(sorted(unused))
        message = (f"unused code{'s' if len(unused) > 1 else ''} {names} in `graphmend: {what}`: "
                   f"{'it is' if len(unused) == 1 else 'they are'} not reported on line {s.line}; remove "
                   f"{'it' if len(unused) == 1 else 'them'}")  # fmt: skip
    kept = _without(s, unused, line)
    return Finding(
        path=path,
        line=s.comment_line,
        column=s.column,
        code=UNUSED_CODE,
        name=UNUSED_NAME,
        end_line=s.comment_line,
        end_column=s.column + len(s.text),
        message=message,
        fix="safe",
        original=s.text,
        replacement=kept,
        edits=(_removal(s, kept, line),),
    )


def _removal(s: Suppression, kept: str, line: str) -> Edit:
    """The edit that leaves `kept` of the comment on `line` (its text with its line end): the comment
    edited when something of it is kept; else the whole comment goes, with the spaces before it, or the
    whole line when the comment stands alone on it."""
    start = s.column - 1
    comment = line[start:].rstrip("\r\n")
    if kept:  # codes remain, or the comment says more than the directive: edit the comment only
        return Edit(s.comment_line, s.column, s.comment_line, s.column + len(comment), kept)
    if not line[:start].strip():  # alone on its line: the line goes
        return Edit(s.comment_line, 1, s.comment_line + 1, 1, "")
    before = len(line[:start].rstrip())
    return Edit(s.comment_line, before + 1, s.comment_line, s.column + len(comment), "")


def _without(s: Suppression, unused: frozenset[str], line: str) -> str:
    """The comment with the unused part taken out ("" when nothing of it is left)."""
    comment = line[s.column - 1 :].rstrip("\r\n")
    match = next(m for m in _DIRECTIVE.finditer(comment) if m.group(1) == "ignore")
    left = sorted(s.codes - unused) if s.codes is not None else []
    if left:
        return comment[: match.start(2)] + ",".join(left) + comment[match.end(2) :]
    rest = (comment[: match.start()] + comment[match.end() :]).strip()
    if rest in ("#", ""):
        return ""
    return "# " + rest.lstrip("#").strip().rstrip(" ;,")


def add_ignores(code: str, findings: Sequence[Finding]) -> str:
    """`code` with every line that has a finding suppressed: its codes merged into the `ignore[...]`
    comment that already applies to the line, else `# graphmend: ignore[CODES]` appended to it.

    Lines that end inside a multi-line string cannot take a comment; they are left out.
    """
    by_line: dict[int, set[str]] = {}
    for finding in findings:
        if finding.code != UNUSED_CODE:
            by_line.setdefault(finding.line, set()).add(finding.code)
    existing = {s.line: s for s in parse_directives(code).suppressions if s.codes is not None}
    lines = physical_lines(code)
    blocked = _lines_ending_in_strings(code)
    for number, codes in by_line.items():
        if number in existing:
            suppression = existing[number]
            lines[suppression.comment_line - 1] = _merged(lines[suppression.comment_line - 1], suppression, codes)
            continue
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
    lines = physical_lines(code)
    lines[suppression.comment_line - 1] = _merged(lines[suppression.comment_line - 1], suppression, {rule})
    return "".join(lines)


def _merged(line: str, suppression: Suppression, rules: set[str]) -> str:
    """`line` with `rules` added to the codes of `suppression`'s `ignore[...]` comment on it."""
    for match in _DIRECTIVE.finditer(line, suppression.column - 1):
        if match.group(1) == "ignore" and match.group(2) is not None:
            codes = ",".join(sorted({*suppression.codes, *rules}))  # type: ignore[misc]
            return line[: match.start(2)] + codes + line[match.end(2) :]
    return line


def physical_lines(code: str) -> list[str]:
    """The lines of `code` with their ends, as Python (and LSP) number them: split at \\n, \\r\\n and \\r
    only (str.splitlines would also split at a form feed or U+2028)."""
    return io.StringIO(code, newline="").readlines()


def _lines_ending_in_strings(code: str) -> set[int]:
    blocked: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(code).readline):
        if token.type in _STRING_TOKENS and token.end[0] > token.start[0]:
            blocked.update(range(token.start[0], token.end[0]))
    return blocked
