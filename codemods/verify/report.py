"""Verdicts and how they are shown: a rich table, or the same content as JSON."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field

from rich.console import Console
from rich.table import Table
from rich.text import Text

VERSIONS = ("before", "after")
CHECKS = ("graph", "strict", "dynamic", "export")
COLUMNS = (("check", 7), ("version", 7), ("result", 8), ("max abs", 7), ("max rel", 7), ("compile s", 9))
NUMERIC = ("max abs", "max rel", "compile s")
MAX_LISTED = 6  # failing comparisons listed per verdict; JSON has them all


@dataclass(frozen=True)
class Location:
    path: str  # as the user knows it
    line: int
    code: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"


@dataclass(frozen=True)
class Failure:
    """Why a run stopped: the first line of the error and the user's line it points at."""

    stage: str
    kind: str
    message: str
    where: Location | None = None

    def headline(self) -> str:
        return f"{self.stage}: " * bool(self.stage) + f"{self.kind}: {self.message}"

    def summary(self) -> str:
        text = self.headline()
        return f"{text} [{self.where}: {self.where.code}]" if self.where else text


@dataclass(frozen=True)
class Comparison:
    """One output leaf or Parameter of one call, against the reference."""

    name: str
    problem: str | None
    max_abs: float | None = None
    max_rel: float | None = None


@dataclass(frozen=True)
class Verdict:
    check: str
    version: str
    passed: bool
    compile_s: float | None = None
    run_s: float | None = None
    comparisons: tuple[Comparison, ...] = ()
    failure: Failure | None = None
    note: str | None = None
    values_compared: bool = True  # False when the reference is random: shapes and dtypes only

    @property
    def max_abs(self) -> float | None:
        return _max(c.max_abs for c in self.comparisons)

    @property
    def max_rel(self) -> float | None:
        return _max(c.max_rel for c in self.comparisons)

    @property
    def problem(self) -> str | None:
        if self.failure:
            return self.failure.summary()
        wrong = [c for c in self.comparisons if c.problem]
        if not wrong:
            return self.note if not self.passed else None
        more = f" (+{len(wrong) - 1} more)" if len(wrong) > 1 else ""
        return f"{wrong[0].name}: {wrong[0].problem}{more}"


@dataclass(frozen=True)
class Reference:
    """Which version's PyNative run the checks are compared with, and why not the original."""

    version: str | None
    random: bool = False
    failures: tuple[tuple[str, Failure], ...] = ()

    def describe(self) -> str:
        lines = [f"the {_name(v)} fails in PyNative: {f.summary()}" for v, f in self.failures]
        if self.version is None:
            lines.append("no version runs in PyNative: there is nothing to compare with")
        else:
            lines.append(f"reference: the {_name(self.version)} in PyNative")
        if self.random:
            lines.append("its outputs change with the seed (random ops): values not compared: random")
        return "\n".join(lines)


@dataclass(frozen=True)
class Timings:
    wall_s: float
    import_s: tuple[float, ...]  # `import mindspore`, once per worker started
    compile_s: float  # first calls of every check, summed

    @property
    def workers(self) -> int:
        return len(self.import_s)


@dataclass(frozen=True)
class Report:
    target: str
    original: str
    rewritten: str
    inputs: tuple[str, ...]
    checks: tuple[str, ...]
    reference: Reference
    verdicts: tuple[Verdict, ...]
    timings: Timings
    notes: tuple[str, ...] = field(default=())
    train: bool = False  # built with set_train(True)

    @property
    def passed(self) -> bool:
        """Every requested check passes after the rewrite, against a reference."""
        after = [v for v in self.verdicts if v.version == "after"]
        return self.reference.version is not None and len(after) == len(self.checks) and all(v.passed for v in after)

    def verdict(self, check: str, version: str) -> Verdict:
        return next(v for v in self.verdicts if v.check == check and v.version == version)

    def to_dict(self) -> dict:
        data = asdict(self)
        data["passed"] = self.passed
        for verdict, raw in zip(self.verdicts, data["verdicts"], strict=True):
            raw.update(max_abs=verdict.max_abs, max_rel=verdict.max_rel, problem=verdict.problem)
        return data


def render_json(report: Report) -> str:
    return json.dumps(report.to_dict(), indent=2)


def render_table(report: Report, console: Console | None = None) -> None:
    """Print the report: a header, one row per check and version, the errors in full, the outcome."""
    console = console or Console()
    console.print(Text("graphmend verify ", style="bold") + Text(report.target))
    header = [
        f"before: {report.original}",
        f"after:  {report.rewritten}",
        f"inputs: {', '.join(report.inputs) or 'none'}",
        "mode:   training (set_train(True))" if report.train else "mode:   eval (set_train(False))",
    ]
    for line in header + report.reference.describe().splitlines() + list(report.notes):
        console.print(Text(f"  {line}"))
    problems = [v for v in report.verdicts if v.problem]
    # the same error in several checks and versions (an import that fails fails them all) is told once
    groups: dict[str, list[Verdict]] = {}
    for verdict in problems:  # the same error on the same source line: the two versions name it differently
        failure, where = verdict.failure, verdict.failure and verdict.failure.where
        key = f"{failure.headline()}|{where.code if where else ''}" if failure else _details(verdict)
        groups.setdefault(key, []).append(verdict)
    numbers = {(v.check, v.version): n for n, same in enumerate(groups.values(), 1) for v in same}
    console.print(_table(report, numbers, console.width))
    for number, same in enumerate(groups.values(), 1):
        console.print(Text(f"[{number}] {_where(same)}: {_details(same[0])}{_hint(same[0])}"))
    _print_outcome(report, console)


def _where(verdicts: list[Verdict]) -> str:
    """`graph, before`; `graph, strict; before and after` for a group."""
    checks = list(dict.fromkeys(v.check for v in verdicts))
    versions = list(dict.fromkeys(v.version for v in verdicts))
    if len(verdicts) == 1:
        return f"{checks[0]}, {versions[0]}"
    return f"{', '.join(checks)}; {' and '.join(versions)}"


def _hint(verdict: Verdict) -> str:
    failure = verdict.failure
    if failure and failure.stage == "import" and failure.kind == "ModuleNotFoundError":
        return ("\n    the Cell's module imports a module the workers' interpreter does not have: install it there,"
                " or pass --python with an interpreter that has it")  # fmt: skip
    return ""


def _table(report: Report, numbers: dict[tuple[str, str], int], width: int) -> Table:
    """One row per check and version; errors cut to the terminal, and printed in full below (`numbers`:
    each failing row's footnote)."""
    table = Table()
    for header, size in COLUMNS:
        table.add_column(header, justify="right" if header in NUMERIC else "left", no_wrap=True, min_width=size)
    room = max(width - sum(size + 3 for _, size in COLUMNS) - 4, 12)
    table.add_column("error / note", no_wrap=True, max_width=room)
    for verdict in report.verdicts:
        number = numbers.get((verdict.check, verdict.version))
        text = (verdict.problem or verdict.note or "").partition("\n")[0]
        text = f"[{number}] {text}" if number else text
        table.add_row(
            verdict.check if verdict.version == VERSIONS[0] else "",
            verdict.version,
            _result(verdict),
            _num(verdict.max_abs),
            _num(verdict.max_rel),
            _num(verdict.compile_s, "{:.2f}"),
            _cut(text, room),
        )
    return table


def _details(verdict: Verdict) -> str:
    if verdict.failure:
        where = verdict.failure.where
        return verdict.failure.headline() + (f"\n    {where}  {where.code}" if where else "")
    wrong = [c for c in verdict.comparisons if c.problem]
    if not wrong:
        return verdict.note or ""
    lines = [f"\n    {c.name}: {c.problem}" for c in wrong[:MAX_LISTED]]
    more = f"\n    ... and {len(wrong) - MAX_LISTED} more" if len(wrong) > MAX_LISTED else ""
    return f"{len(wrong)} of {len(verdict.comparisons)} comparisons fail" + "".join(lines) + more


def _print_outcome(report: Report, console: Console) -> None:
    t = report.timings
    compiled = f"compile {t.compile_s:.1f} s; wall {t.wall_s:.1f} s"
    if t.import_s:
        imports = " + ".join(f"{s:.1f}" for s in t.import_s)
        console.print(f"{t.workers} worker(s); import mindspore {imports} s; {compiled}", highlight=False)
    else:  # a Verifier's workers, started for an earlier Cell of the run
        console.print(f"the run's workers (MindSpore already imported); {compiled}", highlight=False)
    if report.passed:
        shapes = " (shapes and dtypes only: random)" if report.reference.random else ""
        console.print(f"[green]PASS[/]: every requested check passes after the rewrite{shapes}")
    else:
        failing = [v.check for v in report.verdicts if v.version == "after" and not v.passed]
        reason = f"failing after: {', '.join(failing)}" if failing else "no reference to compare with"
        console.print(f"[red]FAIL[/]: {reason}")


def _cut(text: str, room: int) -> Text:
    cell = Text(text)
    cell.truncate(room, overflow="ellipsis")
    return cell


def _result(verdict: Verdict) -> Text:
    if not verdict.passed:
        return Text("✗ fail", style="red")
    if not verdict.values_compared:
        return Text("✓ shapes", style="yellow")
    return Text("✓ pass", style="green")


def _num(value: float | None, fmt: str = "{:.3g}") -> str:
    return "" if value is None else fmt.format(value)


def _max(values) -> float | None:
    present = [v for v in values if v is not None]
    return max(present) if present else None


def _name(version: str) -> str:
    return {"before": "original", "after": "rewritten version"}[version]
