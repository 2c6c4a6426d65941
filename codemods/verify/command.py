"""`graphmend verify`: the typer command over `graphmend.verify.verify_all`."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from graphmend import config as configuration
from graphmend import targets as deploy_targets

from . import cell_source
from .api import Request, UsageError, applicable, verify_all
from .process import default_memory_limit, gigabytes
from .recording import LIMITS, NotReached, Recording
from .recording import record as run_recorded
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
TRAIN_HELP = ("Build the Cell with set_train(True) or set_train(False) (default: both when its construct reads "
              "self.training, else eval).")  # fmt: skip
MEMORY_HELP = (
    "GB of memory per worker before it is killed and its check fails; 0 = no limit "
    f"(default: a quarter of this machine's, {gigabytes(default_memory_limit())})."
)


RECORDED_HELP = (
    "A folder `graphmend record` made: fix the PATHS in memory and verify every Cell the fix touches "
    "with the recorded constructors, Parameters and inputs (TARGET is then PATHS, default .)."
)


def verify(
    target: Annotated[
        list[str] | None,
        typer.Argument(
            help="path/to/file.py:CellName or package.module:CellName; with --recorded, PATHS.", show_default=False
        ),
    ] = None,  # fmt: skip
    recorded: Annotated[Path | None, typer.Option("--recorded", help=RECORDED_HELP, show_default=False)] = None,
    against: Annotated[Path | None, typer.Option(help="Compare with this file instead of graphmend's fix.")] = None,
    unsafe_fixes: Annotated[
        bool, typer.Option("--unsafe-fixes", help="Let graphmend's fix apply unsafe fixes too.")
    ] = False,
    init: Annotated[
        str,
        typer.Option(
            help='Keyword arguments of the Cell as JSON: {"dim": 16}; an object or a call '
            'as {"$ref": "module:name"} or {"$ref": "pkg.config:Config", "kwargs": {...}}.'
        ),
    ] = "{}",
    inputs: Annotated[list[str] | None, typer.Option("--input", help=INPUT_HELP)] = None,
    inputs_from: Annotated[Path | None, typer.Option(help="Recorded inputs: an .npz, in order.")] = None,
    checks: Annotated[str | None, typer.Option(help=CHECKS_HELP)] = None,
    target_: Annotated[list[str] | None, typer.Option("--target", help=TARGET_HELP, show_default=False)] = None,
    train: Annotated[bool | None, typer.Option("--train/--eval", help=TRAIN_HELP, show_default=False)] = None,
    rtol: Annotated[float | None, typer.Option(help="Relative tolerance (default by dtype).")] = None,
    atol: Annotated[float | None, typer.Option(help="Absolute tolerance (default by dtype).")] = None,
    python: Annotated[str, typer.Option(help="Interpreter that runs the user code.")] = sys.executable,
    timeout: Annotated[float, typer.Option(help="Seconds per check before it is killed.")] = 120.0,
    memory_limit: Annotated[float | None, typer.Option(help=MEMORY_HELP, show_default=False)] = None,
    output_format: Annotated[str, typer.Option("--format", help="table or json.")] = "table",
    template: Annotated[
        bool, typer.Option("--template", help="Print a [[tool.graphmend.verify]] entry for the Cell and exit.")
    ] = False,
) -> None:
    """Compile the original and the rewritten Cell in GRAPH_MODE and compare their numbers with PyNative.

    Exit 0 when every requested check passes after the rewrite, 1 otherwise, 2 on a usage error. With
    --recorded: 0 when every touched Cell the recording reached is proven (those it did not reach are
    listed), 1 when one fails or cannot be verified.
    """
    try:
        _check_options(output_format, timeout)
        if recorded is not None:
            code = _verify_recorded(target or ["."], recorded, unsafe_fixes, _checks(checks), target_, python,
                                    timeout, memory_limit, output_format)  # fmt: skip
            raise typer.Exit(code)
        if not target or len(target) != 1:
            raise UsageError(f"give one TARGET (path/to/file.py:CellName), not {len(target or ())}; "
                             "--recorded DIR verifies the Cells of many files")  # fmt: skip
        parsed = parse_target(target[0], python)
        if template:
            typer.echo(config_entry(parsed.path, parsed.cell), nl=False)
            raise typer.Exit(0)
        rewritten, label = _rewritten(parsed.path, against, unsafe_fixes)
        sources = [cell_source.read(parsed.path, parsed.cell), cell_source.read(parsed.path, parsed.cell, rewritten)]
        requests = [
            Request(
                parsed.path,
                rewritten,
                parsed.cell,
                _init(init),
                inputs or [],
                checks=_checks(checks) or _target_checks(target_, parsed.path, inputs or [], inputs_from),
                rtol=rtol,
                atol=atol,
                train=flag,
                inputs_from=inputs_from,
                module=parsed.module,
                rewritten_label=label,
            )  # fmt: skip
            for flag in cell_source.modes(train, sources)
        ]
        reports = verify_all(requests, python=python, timeout=timeout, memory_limit=memory_limit)
    except UsageError as exc:
        Console(stderr=True, soft_wrap=True).print(f"[red]error:[/] {exc}", highlight=False)
        raise typer.Exit(EXIT_USAGE) from None
    if output_format == "json":  # one report, or a list of the two when both modes ran
        documents = [json.loads(render_json(r)) for r in reports]
        typer.echo(json.dumps(documents[0] if len(documents) == 1 else documents, indent=2))
    else:
        for report in reports:
            render_table(report, Console())
    raise typer.Exit(0 if all(r.passed for r in reports) else 1)


def _verify_recorded(paths, folder, unsafe, checks, target, python, timeout, memory_limit, output_format) -> int:
    """`verify --recorded`: fix PATHS in memory (nothing is written), then verify the touched Cells."""
    from graphmend import session as sessions
    from graphmend.verify import Verifier

    from .recording import Recording

    recording = Recording.load(folder)
    try:
        targets = deploy_targets.parse(target) if target else None
        session = sessions.open_session([Path(p) for p in paths], sessions.Options(unsafe=unsafe or None,
                                        target=targets, cache=False), fix=True)  # fmt: skip
    except (deploy_targets.TargetError, configuration.ConfigError, sessions.NothingToCheck) as exc:
        raise UsageError(str(exc)) from None
    console, err = Console(), Console(stderr=True, soft_wrap=True, markup=False, emoji=False, highlight=False)
    outcome = sessions.run(session)
    tally, documents = sessions.Tally(), []
    tree = [Path(t.path) for t in session.tasks]
    with Verifier(python=python, timeout=timeout, memory_limit=memory_limit) as verifier:
        for result in [r for r in outcome.results if r.changed]:
            for cell, report in sessions.verifications(result, session.settings, session.choice.targets, verifier,
                                                       recording, tree):  # fmt: skip
                tally.add(cell, report)
                if isinstance(report, str):
                    documents.append({"cell": cell, "status": "not verified" if isinstance(report, NotReached)
                                      else "could not run", "why": str(report)})  # fmt: skip
                elif output_format == "json":
                    documents.append({"cell": cell, "status": "proven" if report.passed else "failed"}
                                     | json.loads(render_json(report)))  # fmt: skip
                else:
                    render_table(report, console)
    for result in outcome.results:
        if result.error:
            err.print(f"error: {result.error}", highlight=False)
    if checks:
        err.print("note: --checks is not used with --recorded; --target chooses the checks", highlight=False)
    if output_format == "json":
        typer.echo(json.dumps(documents, indent=2))
    changed = sum(1 for r in outcome.results if r.changed)
    err.print(f"{changed} file(s) the fix changes; recording {recording.folder}", highlight=False)
    for line in tally.lines():
        err.print(line, highlight=False)
    return 1 if tally.failed or tally.not_run else 0


def record(
    command: Annotated[
        list[str],
        typer.Argument(help="What to run, e.g. python train.py --steps 1.", metavar="COMMAND...", show_default=False),
    ],
    output: Annotated[Path, typer.Option("--output", "-o", help="The recording folder, made anew.")] = Path(
        "graphmend-recording"
    ),
    tree: Annotated[
        list[Path] | None,
        typer.Option(
            help="Where the Cells to record are defined (repeatable; default: the current directory).",
            show_default=False,
        ),
    ] = None,  # fmt: skip
    max_samples: Annotated[int, typer.Option(help="Samples kept per Cell class.")] = LIMITS["max_samples"],
    max_array_mb: Annotated[float, typer.Option(help="An array over this is kept as its statistics.")] = LIMITS[
        "max_array_mb"
    ],
    max_cell_mb: Annotated[float, typer.Option(help="Arrays (inputs, Parameters) kept per Cell class.")] = LIMITS[
        "max_cell_mb"
    ],
    max_total_mb: Annotated[float, typer.Option(help="Arrays kept in all.")] = LIMITS["max_total_mb"],
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing but COMMAND's own output.")] = False,
) -> None:
    """Run COMMAND in PyNative and record how each Cell of the tree is built and called, for `verify
    --recorded` and `fix --verify --recorded`.

    COMMAND is your code, run as you would run it (every Python process it starts loads the recorder);
    GRAPH_MODE is kept in PyNative while it runs. Exit with COMMAND's exit code, 2 on a usage error.
    """
    err = Console(stderr=True, soft_wrap=True, markup=False, emoji=False, highlight=False)
    limits = {"max_samples": max_samples, "max_array_mb": max_array_mb, "max_cell_mb": max_cell_mb,
              "max_total_mb": max_total_mb}  # fmt: skip
    try:
        if max_samples < 1 or min(max_array_mb, max_cell_mb, max_total_mb) < 0:
            raise UsageError("--max-samples must be at least 1 and the sizes in MB at least 0")
        code, seconds = run_recorded(command, output, tree or [Path(".")], limits)
        recording = Recording.load(output)
    except UsageError as exc:
        err.print(f"error: {exc}")
        raise typer.Exit(EXIT_USAGE) from None
    if not quiet:
        ended = "exit 0" if code == 0 else f"exit {code}: what ran before it ended is recorded"
        err.print(f"graphmend record: {' '.join(command)} ran {seconds:.1f} s ({ended})", highlight=False)
        for line in recording.summary():
            err.print(line, highlight=False)
    raise typer.Exit(code)


def config_entry(path: Path, cell: str) -> str:
    """A `[[tool.graphmend.verify]]` entry to start from, read from the signatures of `__init__` and
    `construct`: a TODO where only the user knows the value (a spec left as it is fails to parse)."""
    root = configuration.load([path]).root
    name = path.relative_to(root) if path.is_relative_to(root) else path
    source = cell_source.read(path, cell)
    lines = ["[[tool.graphmend.verify]]", f'cell = "{name.as_posix()}:{cell}"']
    init = source.init if source else None
    if init is None:
        lines.append("init = {}  # __init__ is not defined in this file: keyword arguments, if it takes any")
    else:
        needed = init.missing(set())
        values = ", ".join(f"{n} = 0" for n in needed)
        lines += [f"# {cell}.{init.text}",
                  f"init = {{ {values} }}  # TODO: a value for each parameter without a default" if needed
                  else "init = {}  # every parameter has a default"]  # fmt: skip
    construct = source.construct if source else None
    if construct is None:
        lines.append('inputs = ["float32[B,TODO]"]  # construct is not defined in this file: one spec per input')
    else:
        specs = ", ".join('"float32[B,TODO]"' for _ in construct.positional[: construct.required])
        lines += [f"# {cell}.{construct.text}: one spec per input, e.g. float32[B,3,224,224], int32[B,16]{{0,30000}},",
                  "# int:4, none; a named dimension (B) is dynamic (graphmend verify --help)",
                  f"inputs = [{specs}]"]  # fmt: skip
    return "\n".join(lines) + "\n"


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
    from graphmend import FixError, fix_source  # the rewriter loads only when it is needed

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
