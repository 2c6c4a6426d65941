"""graphmend: rewrite MindSpore code that breaks in GRAPH_MODE into graph-native code, and prove it."""

from __future__ import annotations

import inspect
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from codemods import RULES, UnknownRule, select_rules
from codemods import config as configuration
from codemods.files import FileError, FileResult, WriteError, read_source, select_files, write_atomic
from codemods.output import FORMATS, render
from codemods.output.formats import printable
from codemods.runner import Cache, Task, run
from codemods.suppressions import add_ignores

app = typer.Typer(add_completion=False, no_args_is_help=True, help=__doc__, rich_markup_mode=None)

from codemods.verify.command import verify as _verify_command  # noqa: E402, I001

app.command("verify")(_verify_command)

err = Console(stderr=True, highlight=False, markup=False, soft_wrap=True)  # messages quote user paths and code

Paths = Annotated[list[Path] | None, typer.Argument(help="Files or directories (default: .).", show_default=False)]
Select = Annotated[str | None, typer.Option(help="Comma-separated rule codes or prefixes to run (GM101,GM2).")]
Ignore = Annotated[str | None, typer.Option(help="Comma-separated rule codes or prefixes to skip.")]
Unsafe = Annotated[
    bool | None,
    typer.Option(
        "--unsafe-fixes/--no-unsafe-fixes", help="Also apply fixes that may change semantics.", show_default=False
    ),
]
Exclude = Annotated[list[str] | None, typer.Option("--exclude", help="Glob of paths to skip (repeatable).")]
ConfigFile = Annotated[Path | None, typer.Option("--config", help="pyproject.toml to read [tool.graphmend] from.")]
Jobs = Annotated[int, typer.Option("--jobs", "-j", help="Worker processes (default: every core; 1 = in-process).")]
NoCache = Annotated[bool, typer.Option("--no-cache", help="Do not read or write .graphmend_cache/.")]
ChangedSince = Annotated[str | None, typer.Option(help="Only files git reports as changed since this revision.")]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar and no summary.")]
Format = Annotated[str, typer.Option("--format", help=f"Output format: {', '.join(FORMATS)}.")]
MaxSize = Annotated[float | None, typer.Option("--max-file-size", help="MB; larger files are reported, not "
                                               "parsed (default 4).", show_default=False)]  # fmt: skip
OutputFile = Annotated[Path | None, typer.Option("--output-file", "-o", help="Write the findings here.")]


@dataclass(frozen=True)
class Run:
    """What one invocation works on, after the config file and the flags are merged."""

    settings: configuration.Settings
    results: list[FileResult]
    unsafe: bool


@app.command()
def check(
    paths: Paths = None,
    select: Select = None,
    ignore: Ignore = None,
    unsafe_fixes: Unsafe = None,
    exclude: Exclude = None,
    config: ConfigFile = None,
    jobs: Jobs = 0,
    no_cache: NoCache = False,
    changed_since: ChangedSince = None,
    max_file_size: MaxSize = None,
    output_format: Format = "text",
    output_file: OutputFile = None,
    quiet: Quiet = False,
    add_ignore: Annotated[bool, typer.Option("--add-ignore", help="Write a suppression for every finding.")] = False,
) -> None:
    """Report graph-hostile code. Exit 0: none found, 1: findings, 2: a file could not be read or parsed."""
    _check_format(output_format)
    current = _run(paths, fix=False, select=select, ignore=ignore, unsafe=unsafe_fixes, exclude=exclude,
                   config=config, jobs=jobs, no_cache=no_cache, changed_since=changed_since, quiet=quiet,
                   max_mb=max_file_size)  # fmt: skip
    if add_ignore:
        raise typer.Exit(_add_ignores(current.results, quiet))
    findings = [f for r in current.results for f in r.findings]
    _emit(render(output_format, findings, current.unsafe), output_file)
    _print_errors(current.results)
    if not quiet and output_format == "text":
        _summary(findings, current.unsafe, len(current.results))
    raise typer.Exit(2 if _errors(current.results) else (1 if findings else 0))


@app.command()
def fix(
    paths: Paths = None,
    diff: Annotated[bool, typer.Option("--diff", help="Print a unified diff; write nothing.")] = False,
    interactive: Annotated[bool, typer.Option("--interactive", "-i", help="Ask before each fix.")] = False,
    verify: Annotated[
        bool,
        typer.Option(
            "--verify", help="Prove the Cells of [tool.graphmend.verify] before writing a file that holds one."
        ),
    ] = False,  # fmt: skip
    force: Annotated[bool, typer.Option("--force", help="Write even when verification fails.")] = False,
    select: Select = None,
    ignore: Ignore = None,
    unsafe_fixes: Unsafe = None,
    exclude: Exclude = None,
    config: ConfigFile = None,
    jobs: Jobs = 0,
    no_cache: NoCache = False,
    changed_since: ChangedSince = None,
    max_file_size: MaxSize = None,
    output_format: Format = "text",
    output_file: OutputFile = None,
    quiet: Quiet = False,
) -> None:
    """Apply the fixes in place (or print them with --diff).

    Exit 0 when nothing is left to fix, 1 when findings remain (with --diff: when there is a diff),
    2 on errors (a file not written counts as an error).
    """
    _check_format(output_format)
    current = _run(paths, fix=True, select=select, ignore=ignore, unsafe=unsafe_fixes, exclude=exclude,
                   config=config, jobs=jobs, no_cache=no_cache, changed_since=changed_since, quiet=quiet,
                   max_mb=max_file_size)  # fmt: skip
    if interactive:
        from codemods.interactive import review

        results = review(current.results, current.unsafe)
        current = Run(current.settings, results, current.unsafe)
    changed = [r for r in current.results if r.changed]
    if diff:
        for result in changed:
            _emit(result.diff(), output_file, append=True)
        fixes = sum(len(r.applied) for r in changed)
        _print_errors(current.results)
        if not quiet:
            err.print(f"Would fix {fixes} finding(s) in {len(changed)} file(s).")
        raise typer.Exit(2 if _errors(current.results) else (1 if changed else 0))
    refused = _verify_gate(changed, current.settings, force) if verify else {}
    written, failed = _write([r for r in changed if r.path not in refused])
    remaining = [f for r in current.results for f in r.findings]
    remaining = sorted([*remaining, *(f for r in changed if r not in written for f in r.applied)])
    _emit(render(output_format, remaining, current.unsafe), output_file)
    _print_errors(current.results)
    for message in [*failed, *refused.values()]:
        err.print(f"error: {printable(message)}")
    if not quiet:
        fixed = sum(len(r.applied) for r in written)
        err.print(f"Fixed {fixed} finding(s) in {len(written)} file(s); {len(remaining)} remaining.")
    raise typer.Exit(2 if _errors(current.results) or failed or refused else (1 if remaining else 0))


@app.command()
def report(
    paths: Paths = None,
    output: Annotated[Path, typer.Option("--output", "-o", help="The HTML file to write.")] = Path(
        "graphmend-report.html"
    ),
    verify: Annotated[
        bool,
        typer.Option(
            "--verify", help="Also verify the Cells of [tool.graphmend.verify] in changed files and show their tables."
        ),
    ] = False,  # fmt: skip
    select: Select = None,
    ignore: Ignore = None,
    unsafe_fixes: Unsafe = None,
    exclude: Exclude = None,
    config: ConfigFile = None,
    jobs: Jobs = 0,
    no_cache: NoCache = False,
    max_file_size: MaxSize = None,
    quiet: Quiet = False,
) -> None:
    """Write a self-contained HTML migration report: findings per rule and file, the diffs, verify tables.

    Nothing is written but the report. Exit 2 on errors, else 0.
    """
    from codemods.output.html import render_report

    current = _run(paths, fix=True, select=select, ignore=ignore, unsafe=unsafe_fixes, exclude=exclude,
                   config=config, jobs=jobs, no_cache=no_cache, changed_since=None, quiet=quiet,
                   max_mb=max_file_size)  # fmt: skip
    verifications = _verifications(current) if verify else []
    html = render_report(current.results, verifications, unsafe=current.unsafe)
    output.write_text(html, encoding="utf-8")
    _print_errors(current.results)
    if not quiet:
        err.print(f"Report written to {output.resolve()}")
    raise typer.Exit(2 if _errors(current.results) else 0)


@app.command()
def rules(code: Annotated[str | None, typer.Argument(help="A rule code: print its documentation.")] = None):
    """List the rules, or print one rule's documentation."""
    if code is None:
        table = Table("code", "name", "default", "fix", "what it does", box=None, pad_edge=False)
        for rule in RULES.values():
            summary = inspect.getdoc(rule).splitlines()[0]
            table.add_row(rule.CODE, rule.NAME, "on" if rule.DEFAULT else "off", rule.FIX, escape(summary))
        Console().print(table)
        return
    rule = RULES.get(code.upper())
    if rule is None:
        err.print(f"error: unknown rule {code!r}; `graphmend rules` lists them")
        raise typer.Exit(2)
    typer.echo(f"{rule.CODE} {rule.NAME} ({'on' if rule.DEFAULT else 'off'} by default)\n")
    typer.echo(inspect.getdoc(rule))
    typer.echo(f"\nBreaks: {rule.BREAKS}\nFix: {rule.FIX}")


# -- running ------------------------------------------------------------------------------------


def _run(paths, *, fix, select, ignore, unsafe, exclude, config, jobs, no_cache, changed_since, quiet, max_mb) -> Run:
    """Merge the config file with the flags, select the files, and check or fix them."""
    paths = paths or [Path(".")]
    try:
        settings = configuration.load(paths, config)
        selected = _codes(select) or (list(settings.select) if settings.select is not None else None)
        ignored = [*settings.ignore, *(_codes(ignore) or [])]
        select_rules(selected, ignored)  # validates the codes before any work
        max_bytes = int((settings.max_file_size if max_mb is None else _megabytes(max_mb)) * 1e6)
    except (configuration.ConfigError, UnknownRule) as exc:
        err.print(f"error: {printable(str(exc))}")
        raise typer.Exit(2) from exc
    for warning in settings.warnings:
        err.print(f"warning: {printable(warning)}")
    unsafe = settings.unsafe_fixes if unsafe is None else unsafe
    chosen = select_files(paths, settings, tuple(exclude or ()), changed_since)
    if not chosen.files and not chosen.errors and changed_since is None:
        found = select_files(paths, configuration.Settings(root=settings.root)).files
        why = f"all {len(found)} Python file(s) under the given paths are excluded" if found else \
              "no Python file under the given paths"  # fmt: skip
        err.print(f"error: nothing to check: {why}")
        raise typer.Exit(2)
    tasks, errors = _tasks(chosen.files, settings, selected, ignored, fix, unsafe, max_bytes)
    cache = None if no_cache else Cache(settings.root / ".graphmend_cache")
    results = [FileResult(e.path, error=e) for e in [*chosen.errors, *errors]]
    results += _with_progress(tasks, jobs or os.cpu_count() or 1, cache, quiet)
    return Run(settings, sorted(results, key=lambda r: r.path), unsafe)


def _megabytes(value: float) -> float:
    if not 0 < value <= configuration.MAX_FILE_SIZE:  # also refuses nan
        raise configuration.ConfigError(f"--max-file-size: expected megabytes > 0 and <= "
                                        f"{configuration.MAX_FILE_SIZE:g}, got {value:g}")  # fmt: skip
    return value


def _tasks(files, settings, selected, ignored, fix, unsafe, max_bytes) -> tuple[list[Task], list[FileError]]:
    tasks, errors = [], []
    for path in files:
        data = read_source(path, max_bytes)
        if isinstance(data, FileError):
            errors.append(data)
            continue
        codes = tuple(rule.CODE for rule in select_rules(selected, [*ignored, *settings.ignored_for(path)]))
        tasks.append(Task(str(path), data, codes, fix, unsafe, max_bytes))
    return tasks, errors


def _with_progress(tasks: list[Task], jobs: int, cache: Cache | None, quiet: bool) -> list[FileResult]:
    if quiet or not err.is_terminal or len(tasks) < 2:
        return run(tasks, jobs, cache)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    columns = (TextColumn("graphmend"), BarColumn(), MofNCompleteColumn(), TextColumn("files"), TimeRemainingColumn())
    with Progress(*columns, console=err, transient=True) as progress:
        bar = progress.add_task("files", total=len(tasks))
        return run(tasks, jobs, cache, on_done=lambda _: progress.advance(bar))


def _check_format(output_format: str) -> None:
    if output_format not in FORMATS:
        err.print(f"error: unknown format {output_format!r}; choose one of {', '.join(FORMATS)}")
        raise typer.Exit(2)


def _codes(option: str | None) -> list[str] | None:
    return [c.strip() for c in option.split(",") if c.strip()] if option else None


# -- output -------------------------------------------------------------------------------------


def _emit(text: str, output_file: Path | None, append: bool = False) -> None:
    if output_file is None:
        sys.stdout.write(text)
        return
    with output_file.open("a" if append else "w", encoding="utf-8") as handle:
        handle.write(text)


def _summary(findings, unsafe: bool, files: int) -> None:
    if not findings:
        err.print(f"No findings in {files} file(s).")
        return
    safe = sum(f.fix == "safe" for f in findings)
    hidden = sum(f.fix == "unsafe" for f in findings)
    line = f"Found {len(findings)} finding(s) in {files} file(s); {safe + (hidden if unsafe else 0)} fixable " \
           "with `graphmend fix`"  # fmt: skip
    if hidden and not unsafe:
        line += f" ({hidden} more with `--unsafe-fixes`)"
    err.print(line + ".")


def _errors(results: list[FileResult]) -> list[FileResult]:
    return [r for r in results if r.error]


def _print_errors(results: list[FileResult]) -> None:
    for result in _errors(results):
        err.print(f"{printable(result.error.location())}: error: {printable(result.error.message)}")


# -- writing ------------------------------------------------------------------------------------


def _write(changed: list[FileResult]) -> tuple[list[FileResult], list[str]]:
    written, failed = [], []
    for result in changed:
        try:
            warning = write_atomic(Path(result.path), result.output, result.original)  # type: ignore[arg-type]
            written.append(result)
        except WriteError as exc:
            failed.append(str(exc))
            continue
        if warning:
            err.print(f"warning: {printable(warning)}")
    return written, failed


def _add_ignores(results: list[FileResult], quiet: bool) -> int:
    added, failed = 0, []
    for result in results:
        findings = [f for f in result.findings if f.code != "GM000"]
        if result.error or not findings:
            continue
        text = result.original.decode(result.encoding)
        updated = add_ignores(text, findings).encode(result.encoding)
        try:
            compile(updated, result.path, "exec", dont_inherit=True)
            warning = write_atomic(Path(result.path), updated, result.original)
            added += len({f.line for f in findings})
            if warning:
                err.print(f"warning: {printable(warning)}")
        except (SyntaxError, WriteError) as exc:
            failed.append(f"{result.path}: suppressions not added: {exc}")
    for message in failed:
        err.print(f"error: {printable(message)}")
    _print_errors(results)
    if not quiet:
        err.print(f"Added {added} suppression comment(s).")
    return 2 if failed or _errors(results) else 0


def _verify_gate(changed: list[FileResult], settings: configuration.Settings, force: bool) -> dict[str, str]:
    """Verify the configured Cells of every changed file; the files whose proof fails are not written."""
    from codemods.verify import render_table

    refused: dict[str, str] = {}
    console = Console()
    for result, target, report in _verify_targets(changed, settings):
        if isinstance(report, str):
            refused[result.path] = f"{result.path}: cannot verify {target.cell}: {report}; not written"
            continue
        render_table(report, console)
        if not report.passed and not force:
            refused[result.path] = f"{result.path}: verification of {target.cell} failed; not written " \
                                   "(--force writes it anyway)"  # fmt: skip
    return refused


def _verifications(current: Run) -> list:
    changed = [r for r in current.results if r.changed]
    return [(target.cell, report) for _, target, report in _verify_targets(changed, current.settings)]


def _verify_targets(changed: list[FileResult], settings: configuration.Settings):
    """(result, target, Report or the reason it could not run) for every configured Cell in a changed file."""
    from codemods.verify import UsageError, verify

    for result in changed:
        for target in [t for t in settings.verify if t.file(settings.root) == Path(result.path).resolve()]:
            err.print(f"verifying {target.cell} …")
            try:
                report = verify(target.file(settings.root), result.output.decode(result.encoding),
                                target.cell.rpartition(":")[2], target.init, list(target.inputs))  # fmt: skip
            except UsageError as exc:
                report = str(exc)
            yield result, target, report


def main() -> None:
    app(prog_name="graphmend")


if __name__ == "__main__":
    sys.exit(main())
