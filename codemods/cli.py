"""graphmend: rewrite MindSpore code that breaks in GRAPH_MODE into graph-native code, and prove it."""

from __future__ import annotations

import contextlib
import functools
import inspect
import json
import os
import sys
from collections import Counter
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from graphmend import RULES, UnknownRule
from graphmend import config as configuration
from graphmend import session as sessions
from graphmend import targets as deploy_targets
from graphmend.files import FileResult
from graphmend.output import FORMATS, formats, progress, render
from graphmend.output.formats import printable
from graphmend.rules import rule_page

STREAMED = ("text", "concise", "full", "github")  # printed file by file as the run goes
HUMAN = ("text", "concise", "full")  # followed by a summary

app = typer.Typer(add_completion=False, no_args_is_help=True, rich_markup_mode=None)

from graphmend.verify.command import record as _record_command, verify as _verify_command  # noqa: E402, I001

app.command("verify")(_verify_command)
app.command("record", context_settings={"allow_interspersed_args": False})(_record_command)

# messages quote user paths and code: no markup, no :emoji: codes (`mindcv.models.coat:CoaT` is no coat)
err = Console(stderr=True, highlight=False, markup=False, emoji=False, soft_wrap=True)

Paths = Annotated[list[Path] | None, typer.Argument(help="Files or directories (default: .).", show_default=False)]
Recorded = Annotated[
    Path | None,
    typer.Option(
        "--recorded",
        help="With --verify: also prove each Cell the fix touches with what `graphmend record` put in this folder.",
        show_default=False,
    ),
]  # fmt: skip
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
Jobs = Annotated[
    int,
    typer.Option(
        "--jobs",
        "-j",
        help="Worker processes (default: every core, in-process for under 64 kB of graph code; 1 = in-process).",
    ),
]
NoCache = Annotated[bool, typer.Option("--no-cache", help="Do not read or write .graphmend_cache/.")]
ChangedSince = Annotated[str | None, typer.Option(help="Only files git reports as changed since this revision.")]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar and no summary.")]
FORMAT_HELP = "Output format: full (the default on a terminal), concise (alias text: the default elsewhere), json, " \
              "sarif, github."  # fmt: skip
Format = Annotated[str | None, typer.Option("--output-format", "--format", show_default=False, help=FORMAT_HELP)]
MaxSize = Annotated[float | None, typer.Option("--max-file-size", help="MB; larger files are reported, not "
                                               "parsed (default 4).", show_default=False)]  # fmt: skip
OutputFile = Annotated[Path | None, typer.Option("--output-file", "-o", "--output", help="Write the findings here.")]
ExtendSelect = Annotated[str | None, typer.Option(help="Comma-separated codes or prefixes added to the selection.")]
ExtendExclude = Annotated[list[str] | None, typer.Option("--extend-exclude", help="Same as --exclude (repeatable).")]
ForceExclude = Annotated[bool, typer.Option("--force-exclude", help="Exclude files named on the command line too; "
                                            "when all are excluded, exit 0 (for pre-commit).")]  # fmt: skip
StdinFilename = Annotated[Path | None, typer.Option("--stdin-filename", help="Read the source from stdin, as this "
                                                    "file (its config applies); fix writes it to stdout.")]  # fmt: skip
ShowSettings = Annotated[bool, typer.Option("--show-settings", help="Print the settings in effect and exit.")]
ExitZero = Annotated[bool, typer.Option("--exit-zero", help="Exit 0 even when findings remain (2 on errors still).")]
ShowFixes = Annotated[bool, typer.Option("--show-fixes", help="List the fixes per file and rule (applied by fix, "
                                         "available for check), on stderr.")]  # fmt: skip
Statistics = Annotated[bool, typer.Option("--statistics", help="Per-rule counts instead of the findings.")]
TargetOption = Annotated[list[str] | None, typer.Option("--target", help="What you deploy: graph, strict, dynamic, "
                         "export (repeatable or comma-separated; default: the config's, else what the code "
                         "asks for, else export).", show_default=False)]  # fmt: skip


def _version(value: bool) -> None:
    if value:
        typer.echo(f"graphmend {formats._version()}")
        raise typer.Exit()


Version = Annotated[bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version.")]


@app.callback()
def _main(version: Version = False) -> None:
    """graphmend: rewrite MindSpore code that breaks in GRAPH_MODE into graph-native code, and prove it."""


@app.command()
def check(
    paths: Paths = None,
    fix_: Annotated[bool, typer.Option("--fix", help="Same as `graphmend fix`.")] = False,
    diff: Annotated[bool, typer.Option("--diff", help="Same as `graphmend fix --diff`.")] = False,
    select: Select = None,
    extend_select: ExtendSelect = None,
    ignore: Ignore = None,
    target: TargetOption = None,
    unsafe_fixes: Unsafe = None,
    exclude: Exclude = None,
    extend_exclude: ExtendExclude = None,
    force_exclude: ForceExclude = False,
    config: ConfigFile = None,
    jobs: Jobs = 0,
    no_cache: NoCache = False,
    changed_since: ChangedSince = None,
    max_file_size: MaxSize = None,
    stdin_filename: StdinFilename = None,
    output_format: Format = None,
    output_file: OutputFile = None,
    statistics: Statistics = False,
    show_fixes: ShowFixes = False,
    show_settings: ShowSettings = False,
    exit_zero: ExitZero = False,
    quiet: Quiet = False,
    add_ignore: Annotated[bool, typer.Option("--add-ignore", help="Write a suppression for every finding.")] = False,
) -> None:
    """Report graph-hostile code. Exit 0: none found, 1: findings, 2: a file could not be read or parsed."""
    if fix_ or diff:
        return fix(paths, diff=diff, select=select, extend_select=extend_select, ignore=ignore, target=target,
                   unsafe_fixes=unsafe_fixes, exclude=exclude, extend_exclude=extend_exclude,
                   force_exclude=force_exclude, config=config, jobs=jobs, no_cache=no_cache,
                   changed_since=changed_since, max_file_size=max_file_size, stdin_filename=stdin_filename,
                   output_format=output_format, output_file=output_file, show_fixes=show_fixes,
                   show_settings=show_settings, exit_zero=exit_zero, quiet=quiet)  # fmt: skip
    output_format = _check_format(output_format, output_file)
    session, _ = _open(paths, fix=False, select=select, extend_select=extend_select, ignore=ignore, target=target,
                       unsafe=unsafe_fixes, exclude=[*(exclude or ()), *(extend_exclude or ())],
                       force_exclude=force_exclude, config=config, jobs=jobs, no_cache=no_cache,
                       changed_since=changed_since, max_mb=max_file_size, stdin_filename=stdin_filename,
                       show_settings=show_settings)  # fmt: skip
    if add_ignore:
        outcome = _with_progress(session, quiet)
        _stopped(outcome, quiet)
        raise typer.Exit(_add_ignores(outcome.results, quiet))
    if statistics:
        outcome = _with_progress(session, quiet)
        _emit(_statistics([f for r in outcome.results for f in r.findings], session.unsafe, output_format),
              output_file)  # fmt: skip
    else:
        outcome = _streamed(session, quiet, output_format, output_file, lambda r: r.findings)
    _stopped(outcome, quiet)
    findings = [f for r in outcome.results for f in r.findings]
    _print_errors(outcome.results)
    if show_fixes:
        _show_fixes("Would fix", [f for f in findings if _fixable(f, session.unsafe)])
    if not quiet and output_format in HUMAN:
        _summary(findings, session.unsafe, len(outcome.results))
        if findings:  # what the findings were chosen for; a clean run says only that it is clean
            err.print(printable(str(session.choice)))
    raise typer.Exit(_exit_code(2 if _errors(outcome.results) else (1 if findings else 0), exit_zero))


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
    recorded: Recorded = None,
    select: Select = None,
    extend_select: ExtendSelect = None,
    ignore: Ignore = None,
    target: TargetOption = None,
    unsafe_fixes: Unsafe = None,
    exclude: Exclude = None,
    extend_exclude: ExtendExclude = None,
    force_exclude: ForceExclude = False,
    config: ConfigFile = None,
    jobs: Jobs = 0,
    no_cache: NoCache = False,
    changed_since: ChangedSince = None,
    max_file_size: MaxSize = None,
    stdin_filename: StdinFilename = None,
    output_format: Format = None,
    output_file: OutputFile = None,
    show_fixes: ShowFixes = False,
    show_settings: ShowSettings = False,
    exit_zero: ExitZero = False,
    quiet: Quiet = False,
) -> None:
    """Apply the fixes in place (or print them with --diff).

    Exit 0 when nothing is left to fix, 1 when findings remain (with --diff: when there is a diff),
    2 on errors (a file not written counts as an error).
    """
    output_format = _check_format(output_format, output_file)
    recording = _recording(recorded, verify)
    session, data = _open(paths, fix=True, select=select, extend_select=extend_select, ignore=ignore, target=target,
                          unsafe=unsafe_fixes, exclude=[*(exclude or ()), *(extend_exclude or ())],
                          force_exclude=force_exclude, config=config, jobs=jobs, no_cache=no_cache,
                          changed_since=changed_since, max_mb=max_file_size, stdin_filename=stdin_filename,
                          show_settings=show_settings)  # fmt: skip
    if data is not None:
        raise typer.Exit(_exit_code(_fix_stdin(session, data, diff, quiet), exit_zero))
    rejected: list = []
    if diff or interactive:
        outcome = _with_progress(session, quiet)
        _stopped(outcome, quiet)
        results = outcome.results
        if interactive:
            from graphmend.interactive import review

            results = review(results, session.unsafe, rejected=rejected)
        changed = [r for r in results if r.changed]
        if diff:
            for result in changed:
                _emit(result.diff(), output_file, append=True)
            _print_errors(results)
            _warn_long_lines(changed, quiet)
            if show_fixes:
                _show_fixes("Would fix", [f for r in changed for f in r.applied])
            if not quiet:
                err.print(f"Would fix {sum(len(r.applied) for r in changed)} finding(s) in {len(changed)} file(s).")
                if changed:
                    err.print(printable(str(session.choice)))
            raise typer.Exit(2 if _errors(results) else (1 if changed else 0))
        outcome = sessions.write(results)
        for warning in outcome.warnings:
            err.print(f"warning: {printable(warning)}")
        remaining = sorted(f for r in outcome.results for f in _remaining(outcome, r))
        if output_format in STREAMED:
            _emit("".join(_render(output_format, r, _remaining(outcome, r), session.unsafe) for r in results),
                  output_file)  # fmt: skip
        else:
            _emit(render(output_format, remaining, session.unsafe), output_file)
    else:
        # each file is written as soon as its result is final (and, with --verify, proven), and what it has
        # left is printed as soon as every file before it (in path order) is done
        shared = sessions.Outcome([])
        left = {}
        tally = sessions.Tally()

        def remaining_of(result: FileResult) -> list:
            if result.path not in left:  # decided when the result arrives, right after its write
                left[result.path] = _remaining(shared, result)
            return left[result.path]

        with contextlib.ExitStack() as stack:
            prove = _proof(session, force, stack, recording, tally) if verify else None
            outcome = _streamed(session, quiet, output_format, output_file, remaining_of, outcome=shared,
                                write=True, prove=prove)  # fmt: skip
        for warning in outcome.warnings:
            err.print(f"warning: {printable(warning)}")
        remaining = sorted(f for r in outcome.results for f in remaining_of(r))
        if recording is not None and not quiet:
            for line in tally.lines():
                err.print(printable(line))
    _print_errors(outcome.results)
    _warn_long_lines(outcome.written, quiet)
    for message in outcome.failed:
        err.print(f"error: {printable(message)}")
    if show_fixes:
        _show_fixes("Fixed", [f for r in outcome.written for f in r.applied])
    if not quiet:
        fixed = sum(len(r.applied) for r in outcome.written)
        line = f"Fixed {fixed} finding(s) in {len(outcome.written)} file(s); {len(remaining)} remaining"
        line += f" ({len(rejected)} rejected)" if interactive else ""
        line += _hidden(remaining, session.unsafe)
        err.print(line + (f"; stopped with {outcome.not_checked} file(s) not checked — run again to continue."
                          if outcome.stopped_by else "."))  # fmt: skip
        if fixed or remaining:
            err.print(printable(str(session.choice)))
    _stopped(outcome, quiet=True)
    code = 2 if _errors(outcome.results) or outcome.failed else (1 if remaining else 0)
    raise typer.Exit(_exit_code(code, exit_zero))


@app.command()
def report(
    paths: Paths = None,
    output: Annotated[Path, typer.Option("--output-file", "-o", "--output", help="The HTML file to write.")] = Path(
        "graphmend-report.html"
    ),
    verify: Annotated[
        bool,
        typer.Option(
            "--verify", help="Also verify the Cells of [tool.graphmend.verify] in changed files and show their tables."
        ),
    ] = False,  # fmt: skip
    recorded: Recorded = None,
    select: Select = None,
    extend_select: ExtendSelect = None,
    ignore: Ignore = None,
    target: TargetOption = None,
    unsafe_fixes: Unsafe = None,
    exclude: Exclude = None,
    extend_exclude: ExtendExclude = None,
    force_exclude: ForceExclude = False,
    config: ConfigFile = None,
    jobs: Jobs = 0,
    no_cache: NoCache = False,
    max_file_size: MaxSize = None,
    show_settings: ShowSettings = False,
    quiet: Quiet = False,
) -> None:
    """Write a self-contained HTML migration report: findings per rule and file, the diffs, verify tables.

    Nothing is written but the report. Exit 2 on errors, else 0.
    """
    from graphmend.output.html import render_report

    recording = _recording(recorded, verify)
    session, _ = _open(paths, fix=True, select=select, extend_select=extend_select, ignore=ignore, target=target,
                       unsafe=unsafe_fixes, exclude=[*(exclude or ()), *(extend_exclude or ())],
                       force_exclude=force_exclude, config=config, jobs=jobs, no_cache=no_cache,
                       changed_since=None, max_mb=max_file_size, show_settings=show_settings)  # fmt: skip
    outcome = _with_progress(session, quiet)
    _stopped(outcome, quiet)
    verifications = []
    if verify:
        from graphmend.verify import Verifier

        tree = [Path(t.path) for t in session.tasks]
        with Verifier() as verifier:  # one pair of workers for every Cell of the report
            for result in [r for r in outcome.results if r.changed]:
                for cell, report in sessions.verifications(result, session.settings, session.choice.targets,
                                                           verifier, recording, tree):  # fmt: skip
                    err.print(f"verified {cell}")
                    verifications.append((cell, report))
    html = render_report(outcome.results, verifications, unsafe=session.unsafe)
    output.write_text(html, encoding="utf-8")
    _print_errors(outcome.results)
    if not quiet:
        err.print(f"Report written to {output.resolve()}")
    raise typer.Exit(2 if _errors(outcome.results) else 0)


@app.command()
def rules(
    code: Annotated[str | None, typer.Argument(help="A rule code or name: print its documentation.")] = None,
    output_format: Annotated[str, typer.Option("--output-format", "--format", help="text or json.")] = "text",
):
    """List the rules, or print one rule's documentation."""
    if output_format not in ("text", "json"):
        err.print(f"error: unknown format {output_format!r}; choose one of text, json")
        raise typer.Exit(2)
    chosen = list(RULES.values())
    if code is not None:
        by_name = {rule.NAME: rule for rule in chosen}
        rule = RULES.get(code.upper()) or by_name.get(code.lower())
        if rule is None:
            err.print(f"error: unknown rule {code!r}; `graphmend rules` lists them")
            raise typer.Exit(2)
        chosen = [rule]
    if output_format == "json":
        pages = [formats.rule_page(rule) for rule in chosen]
        typer.echo(json.dumps(pages[0] if code is not None else pages, indent=2, ensure_ascii=False))
        return
    if code is None:
        table = Table("code", "name", "default", "fix", "targets", "what it does", box=None, pad_edge=False)
        for rule in chosen:
            summary = inspect.getdoc(rule).splitlines()[0]
            targets = rule.BREAKS.targets
            shown = "all" if len(targets) == len(deploy_targets.Target) else ",".join(t.value for t in targets)
            table.add_row(rule.CODE, rule.NAME, "on" if rule.DEFAULT else "off", rule.FIX, shown, escape(summary))
        Console().print(table)
        return
    (rule,) = chosen
    typer.echo(rule_page(rule))


@app.command()
def explain(
    log: Annotated[
        Path | None,
        typer.Argument(help="A MindSpore traceback or whole log (default, or -: stdin).", show_default=False),
    ] = None,  # fmt: skip
    fix_: Annotated[bool, typer.Option("--fix", help="Apply the fixes of the explained findings.")] = False,
    unsafe_fixes: Unsafe = None,
    select: Select = None,
    ignore: Ignore = None,
    config: ConfigFile = None,
    output_format: Annotated[str, typer.Option("--output-format", "--format", help="text or json.")] = "text",
) -> None:
    """Explain MindSpore graph-mode errors: the finding at the user's line and its fix. Exit 0: every error
    explained, 1: some not, 2: bad input. Reads the log and the user's files; runs nothing."""
    from graphmend import explain as explaining

    if output_format not in ("text", "json"):
        err.print(f"error: --output-format: expected text or json, got {output_format!r}")
        raise typer.Exit(2)
    try:
        data = sys.stdin.buffer.read() if log is None or str(log) == "-" else log.read_bytes()
    except OSError as exc:
        err.print(f"error: {log}: cannot read: {exc.strerror or exc}")
        raise typer.Exit(2) from exc
    errors = explaining.parse_log(data.decode("utf-8", errors="replace"))
    if not errors:
        err.print(f"error: {log or 'stdin'}: no error found (a Python traceback or MindSpore error message)")
        raise typer.Exit(2)
    options = sessions.Options(select=_codes(select), ignore=_codes(ignore) or (), unsafe=unsafe_fixes,
                               config=config)  # fmt: skip
    try:
        explanations = explaining.explain(errors, options)
    except (configuration.ConfigError, UnknownRule, sessions.NothingToCheck) as exc:
        err.print(f"error: {exc}")
        raise typer.Exit(2) from exc
    unsafe = explaining.unsafe_setting(options)
    applied = explaining.apply_fixes(explanations, unsafe) if fix_ else None
    if output_format == "json":
        sys.stdout.write(explaining.as_json(explanations, applied))
    else:
        sys.stdout.write(explaining.render_text(explanations, unsafe))
        err.print(explaining.summary(explanations, applied))
    for problem in applied.failed if applied else ():
        err.print(f"error: {problem}")
    raise typer.Exit(0 if all(item.explained for item in explanations) else 1)


@app.command("run", context_settings={"allow_interspersed_args": False})
def run_command(
    command: Annotated[list[str], typer.Argument(help="The command to run, after `--`.", show_default=False)],
    fix_: Annotated[bool, typer.Option("--fix", help="Apply the fix of each explained error and run again.")] = False,
    graph: Annotated[bool, typer.Option("--graph", help="Run the command in GRAPH_MODE (a start-up hook).")] = False,
    strict: Annotated[bool, typer.Option("--strict", help="GRAPH_MODE with jit_syntax_level=STRICT.")] = False,
    max_rounds: Annotated[int, typer.Option("--max-rounds", help="Stop after this many runs.")] = 10,
    root: Annotated[Path | None, typer.Option("--root", help="Only files under it are edited (default: .).")] = None,
    unsafe_fixes: Unsafe = None,
    select: Select = None,
    ignore: Ignore = None,
    config: ConfigFile = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Do not show the command's own output.")] = False,
) -> None:
    """Run COMMAND (your code runs: it is your command), explain the graph-mode error it dies of; with --fix,
    fix it and run again. Exit 0: the last run exited 0, 1: it did not, 2: bad usage."""
    from graphmend import explain as explaining
    from graphmend import run as running

    if max_rounds < 1:
        err.print("error: --max-rounds: expected at least 1")
        raise typer.Exit(2)
    options = sessions.Options(select=_codes(select), ignore=_codes(ignore) or (), unsafe=unsafe_fixes,
                               config=config)  # fmt: skip
    syntax = "STRICT" if strict else ("LAX" if graph else None)
    echo = (lambda text: None) if quiet else (lambda text: sys.stderr.write(text))
    try:
        unsafe = explaining.unsafe_setting(options, root)
        outcome = running.run(command, options, fix=fix_, syntax=syntax, max_rounds=max_rounds, root=root,
                              unsafe=unsafe, echo=echo)  # fmt: skip
    except (configuration.ConfigError, UnknownRule, sessions.NothingToCheck) as exc:
        err.print(f"error: {exc}")
        raise typer.Exit(2) from exc
    except OSError as exc:
        err.print(f"error: cannot run {command[0]!r}: {exc.strerror or exc}")
        raise typer.Exit(2) from exc
    for r in outcome.rounds:
        if r.explanations:
            sys.stdout.write(f"round {r.number}: ")
            sys.stdout.write(explaining.render_text(r.explanations, unsafe))
    table = Table("round", "error", "rule", "file:line", "fixed")
    for row in running.table(outcome):
        table.add_row(*(escape(cell) for cell in row))
    Console(highlight=False, soft_wrap=True).print(table)
    sys.stdout.write(f"{outcome.rounds[-1].note}\n")
    if outcome.diff:
        sys.stdout.write(outcome.diff)
    raise typer.Exit(0 if outcome.passed else 1)


@app.command()
def server() -> None:
    """Run the language server (LSP over stdio) for editors: diagnostics as you type, fixes, rule pages on hover."""
    from graphmend.server import main as serve  # pygls is loaded only by this command

    serve()


# -- running ------------------------------------------------------------------------------------


def _open(paths, *, fix, select, extend_select, ignore, unsafe, exclude, force_exclude, config, jobs, no_cache,
          changed_since, max_mb, stdin_filename=None, show_settings=False, target=None):  # fmt: skip
    """Merge the config file with the flags, select and read the files (or stdin); a usage error is exit 2.
    Returns the session and, with --stdin-filename, the bytes read from stdin."""
    try:
        targets = deploy_targets.parse(target) if target else None
    except deploy_targets.TargetError as exc:
        err.print(f"error: {exc}")
        raise typer.Exit(2) from exc
    options = sessions.Options(select=_codes(select), ignore=_codes(ignore) or (), unsafe=unsafe, target=targets,
                               exclude=tuple(exclude or ()), config=config, jobs=jobs, cache=not no_cache,
                               changed_since=changed_since, max_file_size=max_mb,
                               extend_select=_codes(extend_select) or (), force_exclude=force_exclude)  # fmt: skip
    data = sys.stdin.buffer.read() if stdin_filename is not None else None
    try:
        if stdin_filename is not None:
            session = sessions.open_stdin(stdin_filename, data, options, fix)
        else:
            session = sessions.open_session(paths or [Path(".")], options, fix)
    except (configuration.ConfigError, UnknownRule) as exc:
        err.print(f"error: {printable(str(exc))}")
        raise typer.Exit(2) from exc
    except sessions.NothingToCheck as exc:
        if force_exclude and exc.excluded:  # pre-commit named only excluded files: nothing to do is a success
            if fix and data is not None:
                sys.stdout.buffer.write(data)  # an editor gets its buffer back as it was
            err.print(f"graphmend: nothing to check: {printable(str(exc))} (--force-exclude)")
            raise typer.Exit(0) from exc
        err.print(f"error: nothing to check: {printable(str(exc))}")
        raise typer.Exit(2) from exc
    for warning in session.settings.warnings:
        err.print(f"warning: {printable(warning)}")
    if show_settings:
        typer.echo(_settings_text(session, options))
        raise typer.Exit(0)
    return session, data


def _settings_text(session: sessions.Session, options: sessions.Options) -> str:
    s = session.settings
    cache = str(s.root / ".graphmend_cache") if session.cache is not None else "off"
    lines = [
        f"config: {s.source or '(none: the defaults)'}",
        f"root: {s.root}",
        f"select: {', '.join(s.select) if s.select is not None else '(default)'}"
        + (f" (--select {', '.join(options.select)})" if options.select else "")
        + (f" (--extend-select {', '.join(options.extend_select)})" if options.extend_select else ""),
        f"ignore: {', '.join([*s.ignore, *options.ignore]) or '(none)'}",
        str(session.choice),
        f"rules: {', '.join(session.codes)}",
        f"unsafe-fixes: {str(session.unsafe).lower()}",
        f"exclude: {', '.join([*s.exclude, *options.exclude]) or '(none)'}",
        f"force-exclude: {str(options.force_exclude).lower()}",
        "per-file-ignores: "
        + (
            ", ".join(f"{glob} = {', '.join(codes)}" for glob, codes in s.per_file_ignores.items()) or "(none)"
        ),  # fmt: skip
        f"max-file-size: {s.max_file_size if options.max_file_size is None else options.max_file_size:g} MB",
        f"verify: {', '.join(t.cell for t in s.verify) or '(none)'}",
        f"jobs: {session.jobs}",
        f"cache: {cache}",
        f"files: {len(session.tasks)}",
    ]
    return "\n".join(printable(line) for line in lines)


def _with_progress(session: sessions.Session, quiet: bool, on_done=None, **run) -> sessions.Outcome:
    """`sessions.run`, with a progress bar on a terminal, and a progress line every few seconds on a
    stderr that is not one (a log, CI); `on_done` sees each result as it arrives."""
    if quiet or len(session.tasks) < 2:
        return sessions.run(session, **run, on_done=on_done)
    if not err.is_terminal:
        ticker = progress.Ticker(len(session.tasks), err.print, progress.interval())
        return sessions.run(session, **run, on_done=_both(on_done, ticker.add))
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    columns = (TextColumn("graphmend"), BarColumn(), MofNCompleteColumn(), TextColumn("files"), progress.SteadyETA())
    # findings printed to a terminal go above the bar; to anything else (`> out.txt`) they go there untouched
    with Progress(*columns, console=err, transient=True, redirect_stdout=sys.stdout.isatty(),
                  redirect_stderr=False) as bar:  # fmt: skip
        task = bar.add_task("files", total=len(session.tasks))
        return sessions.run(session, **run, on_done=_both(on_done, lambda _: bar.advance(task)))


def _both(first, second):
    if first is None:
        return second

    def both(result: FileResult) -> None:
        first(result)
        second(result)

    return both


def _streamed(session, quiet: bool, output_format: str, output_file: Path | None, findings_of, **run):
    """Run, printing each file's findings (`findings_of(result)`) in path order as soon as the files before
    it are done; json and sarif are one document, written whole at the end."""
    sink = _Sink(output_file)
    if output_format not in STREAMED:
        outcome = _with_progress(session, quiet, **run)
        sink.write(render(output_format, sorted(f for r in outcome.results for f in findings_of(r)), session.unsafe))
        return outcome

    def emit(result: FileResult) -> None:
        sink.write(_render(output_format, result, findings_of(result), session.unsafe))

    order = progress.InOrder([t.path for t in session.tasks], emit)
    outcome = _with_progress(session, quiet, on_done=order.add, **run)
    order.finish(outcome.results)
    return outcome


def _remaining(outcome: sessions.Outcome, result: FileResult) -> list:
    """What a fixed file has left: its findings, and its fixes too when it was not written."""
    written = any(w is result for w in reversed(outcome.written))  # while streaming: the last one
    return sorted([*result.findings, *(result.applied if result.changed and not written else ())])


def _stopped(outcome: sessions.Outcome, quiet: bool) -> None:
    """A run stopped by SIGINT/SIGTERM exits 130/143 (what a shell reports), after saying what was done."""
    if outcome.stopped_by is None:
        return
    if not quiet:
        err.print(f"stopped: {outcome.not_checked} file(s) not checked")
    raise typer.Exit(128 + outcome.stopped_by)


def _recording(folder: Path | None, verify: bool):
    """The recording of --recorded (only with --verify); a folder without one is a usage error."""
    if folder is None:
        return None
    from graphmend.verify import UsageError
    from graphmend.verify.recording import Recording

    try:
        if not verify:
            raise UsageError("--recorded goes with --verify: fix --verify --recorded DIR")
        return Recording.load(folder)
    except UsageError as exc:
        err.print(f"error: {printable(str(exc))}")
        raise typer.Exit(2) from exc


def _proof(session: sessions.Session, force: bool, stack: contextlib.ExitStack, recording=None, tally=None):
    """`fix --verify`: a changed file is written only once its configured Cells (and, with a recording, the
    Cells the fix touches that it reached) are proven, all of them on one pair of verifier workers, closed
    with `stack`. A touched Cell the recording did not reach does not hold the file back; `tally` lists it."""
    from graphmend.verify import Verifier, render_table
    from graphmend.verify.recording import NotReached

    console = Console()
    verifier = stack.enter_context(Verifier())
    tree = [Path(t.path) for t in session.tasks]

    def prove(result: FileResult) -> str | None:
        for cell, report in sessions.verifications(result, session.settings, session.choice.targets, verifier,
                                                   recording, tree):  # fmt: skip
            if tally is not None:
                tally.add(cell, report)
            if isinstance(report, NotReached):  # listed by the tally at the end; the file is still written
                continue
            if isinstance(report, str):
                return f"{result.path}: cannot verify {cell}: {report}; not written"
            render_table(report, console)
            if not report.passed and not force:  # type: ignore[attr-defined]
                return f"{result.path}: verification of {cell} failed; not written (--force writes it anyway)"
        return None

    return prove


def _warn_long_lines(results, quiet: bool) -> None:
    """One warning when lines a fix wrote are longer than the file's formatter allows (its nearest ruff or
    black line-length): graphmend keeps the layout around an edit and does not reflow it."""
    if quiet:
        return
    lengths = functools.cache(configuration.formatter_line_length)
    lines, settings = [], set()
    for result in results:
        found = lengths(Path(os.path.realpath(result.path)).parent)
        if found is not None:
            lines += sessions.long_lines([result], found[0])
            settings.add(found)
    if lines:
        where = "; ".join(f"{limit} ({source})" for limit, source in sorted(settings))
        shown = ", ".join(f"{path}:{line} ({length})" for path, line, length in lines[:5])
        more = f" and {len(lines) - 5} more" if len(lines) > 5 else ""
        err.print(printable(f"warning: {len(lines)} line(s) the fix wrote are longer than {where}: "
                            f"{shown}{more}; run your formatter"))  # fmt: skip


def _check_format(output_format: str | None, output_file: Path | None) -> str:
    """The format asked for; by default `full` for a person at a terminal, `concise` for pipes and files."""
    if output_format is None:
        return "full" if output_file is None and sys.stdout.isatty() else "concise"
    if output_format not in (*FORMATS, "full"):
        err.print(f"error: unknown format {output_format!r}; choose one of full, {', '.join(FORMATS)}")
        raise typer.Exit(2)
    return output_format


def _render(output_format: str, result: FileResult, findings, unsafe: bool) -> str:
    """One file's findings; `full` shows them in the file's text (the fixed text for what `fix` left)."""
    if output_format != "full" or not findings:
        return render(output_format, findings, unsafe)
    from graphmend.output.full import full

    data = result.output if result.changed else result.original
    return full(findings, (data or b"").decode(result.encoding, errors="replace"), unsafe)


def _exit_code(code: int, exit_zero: bool) -> int:
    return 0 if exit_zero and code == 1 else code


def _fix_stdin(session: sessions.Session, data: bytes, diff: bool, quiet: bool) -> int:
    """`fix --stdin-filename`: the fixed source (or the diff) on stdout, what is left on stderr; nothing
    is written to disk."""
    outcome = sessions.run(session)
    result = outcome.results[0]
    if diff:
        sys.stdout.write(result.diff())
    else:
        sys.stdout.buffer.write(result.output if result.changed else data)  # type: ignore[arg-type]
    sys.stdout.flush()
    _print_errors(outcome.results)
    remaining = list(result.findings)
    err.print(render("text", remaining, session.unsafe), end="")
    if not quiet and not diff:
        err.print(f"Fixed {len(result.applied)} finding(s); {len(remaining)} remaining.")
    return 2 if result.error else (1 if (result.changed if diff else remaining) else 0)


def _fixable(finding, unsafe: bool) -> bool:
    return finding.fix == "safe" or (finding.fix == "unsafe" and unsafe)


def _statistics(findings, unsafe: bool, output_format: str) -> str:
    """ruff's `--statistics`: a count, the code, [*] when every one is fixable, the rule's name."""
    codes = sorted({f.code for f in findings})
    rows = []
    for code in codes:
        these = [f for f in findings if f.code == code]
        fixable = sum(_fixable(f, unsafe) for f in these)
        rows.append({"code": code, "name": these[0].name, "count": len(these), "fixable": fixable})
    if output_format == "json":
        return json.dumps(rows, indent=2) + "\n"
    width = max((len(str(r["count"])) for r in rows), default=1)
    marks = {True: "[*] ", False: "[-] "}
    return "".join(f"{r['count']:>{width}}\t{r['code']}\t"
                   f"{marks[r['fixable'] == r['count']] if r['fixable'] else '    '}{r['name']}\n"
                   for r in rows)  # fmt: skip


def _show_fixes(title: str, findings) -> None:
    """ruff's `--show-fixes`: the fixes per file, counted per rule."""
    if not findings:
        err.print(f"{title}: nothing.")
        return
    err.print(f"{title} {len(findings)} finding(s):")
    for path in sorted({f.path for f in findings}):
        err.print(f"- {printable(path)}:")
        counts = Counter((f.code, f.name) for f in findings if f.path == path)
        for (code, name), count in sorted(counts.items()):
            err.print(f"    {count} × {code} ({name})")


def _codes(option: str | None) -> list[str] | None:
    return [c.strip() for c in option.split(",") if c.strip()] if option else None


# -- output -------------------------------------------------------------------------------------


class _Sink:
    """Standard output or the --output-file, written to and flushed as the run goes."""

    def __init__(self, output_file: Path | None) -> None:
        self.output_file, self.opened = output_file, False

    def write(self, text: str) -> None:
        if self.output_file is None:
            sys.stdout.write(text)
            sys.stdout.flush()
            return
        _emit(text, self.output_file, append=self.opened)
        self.opened = True


def _emit(text: str, output_file: Path | None, append: bool = False) -> None:
    if output_file is None:
        sys.stdout.write(text)
        return
    with output_file.open("a" if append else "w", encoding="utf-8") as handle:
        handle.write(text)


def _summary(findings, unsafe: bool, files: int) -> None:
    """`Found 6 findings in 3 files (of 40 checked); 6 fixable with `graphmend fix` (2 more fixes with
    `--unsafe-fixes`).`: the files counted are those with findings."""
    if not findings:
        err.print(f"No findings in {_n(files, 'file')}.")
        return
    fixable = sum(_fixable(f, unsafe) for f in findings)
    with_findings = len({f.path for f in findings})
    line = f"Found {_n(len(findings), 'finding')} in {_n(with_findings, 'file')} (of {files} checked); " \
           f"{fixable} fixable with `graphmend fix`"  # fmt: skip
    err.print(line + _hidden(findings, unsafe) + ".")


def _hidden(findings, unsafe: bool) -> str:
    """The unsafe fixes not applied nor marked `[*]` without `--unsafe-fixes`, announced."""
    hidden = 0 if unsafe else sum(f.fix == "unsafe" for f in findings)
    return f" ({hidden} more {'fix' if hidden == 1 else 'fixes'} with `--unsafe-fixes`)" if hidden else ""


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _errors(results: list[FileResult]) -> list[FileResult]:
    return [r for r in results if r.error]


def _print_errors(results: list[FileResult]) -> None:
    for result in _errors(results):
        err.print(f"{printable(result.error.location())}: error: {printable(result.error.message)}")


# -- writing ------------------------------------------------------------------------------------


def _add_ignores(results: list[FileResult], quiet: bool) -> int:
    outcome = sessions.add_ignores(results)
    for warning in outcome.warnings:
        err.print(f"warning: {printable(warning)}")
    for message in outcome.failed:
        err.print(f"error: {printable(message)}")
    _print_errors(results)
    if not quiet:
        err.print(f"Added {sum(len({f.line for f in r.findings}) for r in outcome.written)} suppression comment(s).")
    return 2 if outcome.failed or _errors(results) else 0


def main() -> None:
    app(prog_name="graphmend")


if __name__ == "__main__":
    sys.exit(main())
