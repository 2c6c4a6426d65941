"""`graphmend fix --interactive`: every fix shown as a colored hunk, applied only when accepted."""

from __future__ import annotations

import difflib
import os
import sys
from dataclasses import replace

from rich.console import Console
from rich.markup import escape
from rich.syntax import Syntax

from graphmend import engine
from graphmend.files import FileResult
from graphmend.finding import Finding
from graphmend.rules import RULES

CHOICES = "[y]es / [n]o / [a]ll of this rule / [q]uit"


def review(
    results: list[FileResult], unsafe: bool, console: Console | None = None, rejected: list[Finding] | None = None
) -> list[FileResult]:
    """`results` with only the accepted fixes applied (the rest of each file as it was); the fixes answered
    "no" are appended to `rejected` and stay among their file's findings."""
    console = console or Console(highlight=False)
    rejected = rejected if rejected is not None else []
    accept_all: set[str] = set()
    reviewed, quit_ = [], False
    for result in results:
        if quit_ or not result.changed:
            reviewed.append(result if result.changed is False else replace(result, output=result.original))
            continue
        result, quit_ = _review_file(result, unsafe, accept_all, console, rejected)
        reviewed.append(result)
    return reviewed


def _review_file(result: FileResult, unsafe: bool, accept_all: set[str], console: Console, rejected: list[Finding]):
    rules = [RULES[code] for code in sorted({f.code for f in result.applied})]
    current, applied, skipped, no = result.original, [], set(), []
    while True:
        options = [(f, new) for f, new in engine.candidates(current, result.path, rules, unsafe)
                   if _key(f) not in skipped]  # fmt: skip
        if not options:
            break
        finding, new = options[0]
        answer = "y" if finding.code in accept_all else _ask(result, finding, current, new, console)
        if answer == "q":
            return _done(result, current, applied, no), True
        if answer in ("y", "a"):
            current = new
            applied.append(finding)
            if answer == "a":
                accept_all.add(finding.code)
        else:
            skipped.add(_key(finding))
            no.append(finding)
            rejected.append(finding)
    return _done(result, current, applied, no), False


def _ask(result: FileResult, finding: Finding, before: bytes, after: bytes, console: Console) -> str:
    console.rule(f"{finding.location()}  {finding.code} {finding.name}", style="cyan")
    console.print(finding.message)
    hunk = "".join(difflib.unified_diff(
        before.decode(result.encoding).splitlines(keepends=True),
        after.decode(result.encoding).splitlines(keepends=True),
        f"a/{result.path}", f"b/{result.path}", n=2,
    ))  # fmt: skip
    console.print(Syntax(hunk, "diff", theme="ansi_dark", background_color="default"))
    prompt = escape(f"Apply this {finding.fix} fix? {CHOICES} ")
    while True:
        answer = _key_pressed(prompt, console) if sys.stdin.isatty() else _line(prompt, console)
        if answer in ("y", "n", "a", "q"):
            return answer
        console.print(escape(f"unknown answer {answer!r}: press y, n, a or q"))


def _key_pressed(prompt: str, console: Console) -> str:
    """One key, without Enter (the terminal in cbreak mode for the read; Enter and spaces are skipped)."""
    import termios
    import tty

    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    try:
        # cbreak before the prompt shows, and without flushing: a key pressed as soon as the prompt appears
        # (or typed ahead) is read, not discarded
        tty.setcbreak(fd, termios.TCSADRAIN)
        console.print(prompt, end="")
        key = " "
        while key in " \r\n":
            key = os.read(fd, 1).decode(errors="replace") or "q"  # end of input: quit
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
    console.print(escape(key) if key.isprintable() else repr(key))
    return "q" if key == "\x04" else key.lower()


def _line(prompt: str, console: Console) -> str:
    """A line, for answers piped in; end of input quits (nothing more is written than was accepted)."""
    try:
        return console.input(prompt).strip().lower()[:1] or "?"
    except EOFError:
        return "q"


def _key(finding: Finding) -> tuple:
    return finding.code, finding.line, finding.original, finding.replacement


def _done(result: FileResult, current: bytes, applied: list[Finding], rejected: list[Finding]) -> FileResult:
    return replace(
        result, output=current, applied=tuple(applied), findings=tuple(sorted([*result.findings, *rejected]))
    )


__all__ = ["review"]
