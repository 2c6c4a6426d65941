"""graphmend: rewrite MindSpore code that breaks in GRAPH_MODE into graph-native code, and prove it."""

from __future__ import annotations

import inspect
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from codemods import RULES, UnknownRule, select_rules
from codemods.files import FileResult, WriteError, discover, process, write_atomic

app = typer.Typer(add_completion=False, no_args_is_help=True, help=__doc__, rich_markup_mode=None)
from codemods.verify.command import verify as _verify_command  # noqa: E402, I001
app.command("verify")(_verify_command)

Paths = Annotated[list[Path], typer.Argument(help="Files or directories (walked for *.py).", show_default=False)]
Select = Annotated[str | None, typer.Option(help="Comma-separated rule codes or prefixes to run (GM101,GM2).")]
Ignore = Annotated[str | None, typer.Option(help="Comma-separated rule codes or prefixes to skip.")]
Unsafe = Annotated[bool, typer.Option("--unsafe-fixes", help="Also apply fixes that may change semantics.")]


@app.command()
def check(paths: Paths, select: Select = None, ignore: Ignore = None, unsafe_fixes: Unsafe = False) -> None:
    """Report graph-hostile code. Exit 0: none found, 1: findings, 2: a file could not be read or parsed."""
    results = _run(paths, select, ignore, fix=False, unsafe=unsafe_fixes)
    findings = [f for r in results for f in r.findings]
    for finding in findings:
        typer.echo(_format(finding, unsafe_fixes))
    _print_errors(results)
    _summary(findings, unsafe_fixes)
    raise typer.Exit(_exit_code(results, findings))


@app.command()
def fix(
    paths: Paths,
    diff: Annotated[bool, typer.Option("--diff", help="Print a unified diff; write nothing.")] = False,
    select: Select = None,
    ignore: Ignore = None,
    unsafe_fixes: Unsafe = False,
) -> None:
    """Apply the fixes in place (or print them with --diff). Exit 1 when findings remain (or, with --diff,
    when there is a diff), 2 on errors."""
    results = _run(paths, select, ignore, fix=True, unsafe=unsafe_fixes)
    changed = [r for r in results if r.changed]
    if diff:
        for result in changed:
            typer.echo(result.diff(), nl=False)
        fixes = sum(len(r.applied) for r in changed)
        typer.echo(f"Would fix {fixes} finding(s) in {len(changed)} file(s).", err=True)
        _print_errors(results)
        raise typer.Exit(2 if _errors(results) else (1 if changed else 0))
    written, failed = _write(changed)
    remaining = [f for r in results for f in r.findings]
    for finding in remaining:
        typer.echo(_format(finding, unsafe_fixes))
    _print_errors(results)
    for message in failed:
        typer.echo(f"error: {message}", err=True)
    fixed = sum(len(r.applied) for r in written)
    typer.echo(f"Fixed {fixed} finding(s) in {len(written)} file(s); {len(remaining)} remaining.", err=True)
    raise typer.Exit(2 if _errors(results) or failed else (1 if remaining else 0))


@app.command()
def rules(code: Annotated[str | None, typer.Argument(help="A rule code: print its documentation.")] = None):
    """List the rules, or print one rule's documentation."""
    console = Console()
    if code is None:
        table = Table("code", "name", "default", "fix", "what it does", box=None, pad_edge=False)
        for rule in RULES.values():
            summary = inspect.getdoc(rule).splitlines()[0]
            table.add_row(rule.CODE, rule.NAME, "on" if rule.DEFAULT else "off", rule.FIX, summary)
        console.print(table)
        return
    rule = RULES.get(code.upper())
    if rule is None:
        typer.echo(f"error: unknown rule {code!r}; `graphmend rules` lists them", err=True)
        raise typer.Exit(2)
    typer.echo(f"{rule.CODE} {rule.NAME} ({'on' if rule.DEFAULT else 'off'} by default)\n")
    typer.echo(inspect.getdoc(rule))
    typer.echo(f"\nBreaks: {rule.BREAKS}\nFix: {rule.FIX}")


def _run(paths: list[Path], select: str | None, ignore: str | None, fix: bool, unsafe: bool) -> list[FileResult]:
    try:
        chosen = select_rules(_codes(select), _codes(ignore) or ())
    except UnknownRule as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    found = discover(paths)
    results = [FileResult(e.path, error=e) for e in found.errors]
    results += [process(path, chosen, fix, unsafe) for path in found.files]
    return results


def _codes(option: str | None) -> list[str] | None:
    return [c.strip() for c in option.split(",") if c.strip()] if option else None


def _format(finding, unsafe: bool) -> str:
    fixable = finding.fix == "safe" or (finding.fix == "unsafe" and unsafe)
    marker = " [*]" if fixable else ""
    return f"{finding.location()}: {finding.code}{marker} {finding.message}"


def _summary(findings, unsafe: bool) -> None:
    if not findings:
        typer.echo("No findings.", err=True)
        return
    safe = sum(f.fix == "safe" for f in findings)
    hidden = sum(f.fix == "unsafe" for f in findings)
    line = f"Found {len(findings)} finding(s); {safe + (hidden if unsafe else 0)} fixable with `graphmend fix`"
    if hidden and not unsafe:
        line += f" ({hidden} more with `--unsafe-fixes`)"
    typer.echo(line + ".", err=True)


def _errors(results: list[FileResult]) -> list[FileResult]:
    return [r for r in results if r.error]


def _print_errors(results: list[FileResult]) -> None:
    for result in _errors(results):
        typer.echo(f"{result.error.location()}: error: {result.error.message}", err=True)


def _exit_code(results: list[FileResult], findings: list) -> int:
    return 2 if _errors(results) else (1 if findings else 0)


def _write(changed: list[FileResult]) -> tuple[list[FileResult], list[str]]:
    written, failed = [], []
    for result in changed:
        try:
            write_atomic(Path(result.path), result.output, result.original)  # type: ignore[arg-type]
            written.append(result)
        except WriteError as exc:
            failed.append(str(exc))
    return written, failed


def main() -> None:
    app(prog_name="graphmend")


if __name__ == "__main__":
    sys.exit(main())
