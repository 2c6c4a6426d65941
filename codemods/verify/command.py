"""`graphmend verify`: the typer command over `codemods.verify.verify`."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from codemods import config as configuration
from codemods import targets as deploy_targets

from .api import UsageError, applicable
from .api import verify as run_verify
from .process import default_memory_limit, gigabytes
from .report import CHECKS, render_json, render_table
from .staging import shown
from .target import parse_target

EXIT_USAGE = 2
INPUT_HELP = (
    "One per positional input: float32[2,3,32,32], int32[B,16]{0,30000} (a named dimension is dynamic; "
    "B=4 sets its size), int:4, float:0.5, bool:true, none."
)
CHECKS_HELP = f"Comma-separated subset of {','.join(CHECKS)} (default: those of the target, all that apply)."
TARGET_HELP = ("What you deploy: graph, strict, dynamic, export (repeatable or comma-separated): the checks that "
               "measure it run (default: the config's `target`, else every check).")  # fmt: skip
MEMORY_HELP = (
    "GB of memory per worker before it is killed and its check fails; 0 = no limit "
    f"(default: a quarter of this machine's, {gigabytes(default_memory_limit())})."
)


def verify(
    target: Annotated[str, typer.Argument(help="path/to/file.py:CellName or package.module:CellName")],
    against: Annotated[Path | None, typer.Option(help="Compare with this file instead of graphmend's fix.")] = None,
    unsafe_fixes: Annotated[
        bool, typer.Option("--unsafe-fixes", help="Let graphmend's fix apply unsafe fixes too.")
    ] = False,
    init: Annotated[str, typer.Option(help='Keyword arguments of the Cell as JSON: {"dim": 16}.')] = "{}",
    inputs: Annotated[list[str] | None, typer.Option("--input", help=INPUT_HELP)] = None,
    inputs_from: Annotated[Path | None, typer.Option(help="Recorded inputs: an .npz, in order.")] = None,
    checks: Annotated[str | None, typer.Option(help=CHECKS_HELP)] = None,
    target_: Annotated[list[str] | None, typer.Option("--target", help=TARGET_HELP, show_default=False)] = None,
    train: Annotated[bool, typer.Option("--train", help="Run in train mode (default: set_train(False)).")] = False,
    rtol: Annotated[float | None, typer.Option(help="Relative tolerance (default by dtype).")] = None,
    atol: Annotated[float | None, typer.Option(help="Absolute tolerance (default by dtype).")] = None,
    python: Annotated[str, typer.Option(help="Interpreter that runs the user code.")] = sys.executable,
    timeout: Annotated[float, typer.Option(help="Seconds per check before it is killed.")] = 120.0,
    memory_limit: Annotated[float | None, typer.Option(help=MEMORY_HELP, show_default=False)] = None,
    output_format: Annotated[str, typer.Option("--format", help="table or json.")] = "table",
) -> None:
    """Compile the original and the rewritten Cell in GRAPH_MODE and compare their numbers with PyNative.

    Exit 0 when every requested check passes after the rewrite, 1 otherwise, 2 on a usage error.
    """
    try:
        _check_options(output_format, timeout)
        parsed = parse_target(target, python)
        rewritten, label = _rewritten(parsed.path, against, unsafe_fixes)
        report = run_verify(
            parsed.path,
            rewritten,
            parsed.cell,
            _init(init),
            inputs or [],
            checks=_checks(checks) or _target_checks(target_, parsed.path, inputs or [], inputs_from),
            python=python,
            timeout=timeout,
            rtol=rtol,
            atol=atol,
            train=train,
            inputs_from=inputs_from,
            module=parsed.module,
            rewritten_label=label,
            memory_limit=memory_limit,
        )
    except UsageError as exc:
        Console(stderr=True).print(f"[red]error:[/] {exc}", highlight=False)
        raise typer.Exit(EXIT_USAGE) from None
    if output_format == "json":
        typer.echo(render_json(report))
    else:
        render_table(report, Console())
    raise typer.Exit(0 if report.passed else 1)


def _check_options(output_format: str, timeout: float) -> None:
    if output_format not in ("table", "json"):
        raise UsageError(f"--format {output_format}: use table or json")
    if timeout <= 0:
        raise UsageError("--timeout must be positive")


def _checks(text: str | None) -> list[str] | None:
    return None if text is None else [c.strip() for c in text.split(",") if c.strip()]


def _target_checks(target: list[str] | None, path: Path, inputs: list[str], inputs_from: Path | None):
    """The checks of `--target`, else of the config's `target`; None (every check) without either. The
    dynamic check is left out when no input has a named dimension, as it is by default."""
    try:
        chosen = deploy_targets.parse(target) if target else configuration.load([path]).target
    except (deploy_targets.TargetError, configuration.ConfigError) as exc:
        raise UsageError(str(exc)) from None
    if chosen is None:
        return None
    return applicable(deploy_targets.checks(chosen), inputs, inputs_from)


def _rewritten(original: Path, against: Path | None, unsafe: bool) -> tuple[str, str | None]:
    """The rewritten source, and how to name it in error locations."""
    if against is not None:
        if unsafe:
            raise UsageError("--unsafe-fixes applies to graphmend's own fix; drop it or drop --against")
        if not against.is_file():
            raise UsageError(f"--against {against}: no such file")
        return against.read_text(encoding="utf-8"), shown(str(against.resolve()))
    from codemods import FixError, fix_source  # the rewriter loads only when it is needed

    try:
        result = fix_source(original.read_text(encoding="utf-8"), path=shown(str(original)), unsafe=unsafe)
    except FixError as exc:
        raise UsageError(f"graphmend could not fix the original: {exc}") from None
    return result.output, None


def _init(text: str) -> dict:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"--init is not valid JSON ({exc.msg} at column {exc.colno}): {text}") from None
    if not isinstance(value, dict):
        raise UsageError(f"--init must be a JSON object of keyword arguments, e.g. '{{\"dim\": 16}}', not {text}")
    return value
