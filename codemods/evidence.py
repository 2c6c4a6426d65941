"""What MindSpore does with each rule's pattern, measured: `make evidence` writes docs/evidence.md.

Each rule names one hostile Cell (`CELLS`): code that has the pattern, under tests/verify_rules/ or
examples/.
The verifier (`graphmend.verify`, MindSpore in child processes only) compiles it as it is ("before")
and as graphmend fixes it with that rule alone ("after") in every configuration (GRAPH, STRICT, a
dynamic batch, MindIR export), and compares each with the original in PyNative. Rerun it on a new
MindSpore release to see which rules still matter:

    python -m graphmend.evidence -o docs/evidence.md      # every rule; a few minutes on 2 cores
    python -m graphmend.evidence GM104 GM301              # some rules, printed
    python -m graphmend.evidence --check                  # also fail when a rule's BREAKS disagrees

Each rule's `BREAKS` (graphmend.targets) is checked against the measurement, never trusted: its measured
targets must be exactly the checks that fail *before* the fix, a rule whose original fails in PyNative
must say `pynative=True`, and what no check runs (`together=`, a `pynative=` the checks cannot show) must
be explained by a note on its Cell. `--check` compares a fresh measurement (`make evidence` runs it);
tests/test_targets.py compares the committed docs/evidence.md, with the same `disagreements`.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from graphmend import RULES, fix_source
from graphmend.verify import CHECKS, Report, Request, Verifier

REPO = Path(__file__).resolve().parent.parent
INPUT = ("float32[B,3,4,4]",)


@dataclass(frozen=True)
class Cell:
    """A rule's hostile Cell: where it is, how to call it, how to fix it."""

    path: str  # relative to the repository
    name: str
    inputs: tuple[str, ...] = INPUT
    unsafe: bool = False  # apply the rule's unsafe fixes too
    train: bool = False
    note: str = ""  # what the four checks cannot show


_HOST = "tests/verify_rules/host_data/"
_SHAPES = "tests/verify_rules/shapes_flow/"
_TORCH = "tests/verify_rules/torch_port/"
_LIMITS = "tests/verify_rules/limits/"

# rule → its hostile Cell; None: the rule is about graphmend itself, not a MindSpore pattern
CELLS: dict[str, Cell | None] = {
    "GM000": None,
    "GM101": Cell("examples/qformer_mask.py", "ImageTextHead", ("float32[B,5,16]",)),
    "GM102": Cell(_HOST + "gm102_numpy_random.py", "Noisy", unsafe=True),
    "GM103": Cell(_HOST + "gm103_numpy_call.py", "HostSqrt"),
    "GM104": Cell(
        _HOST + "gm104_scalar_from_batch.py",
        "Scaled",
        note="BatchScale (gm104_tensor_from_shape.py) fails only with a dynamic batch under STRICT: no check runs it",
    ),
    "GM105": Cell(_HOST + "gm105_tensor_from_tensors.py", "Stats"),
    "GM106": Cell(_HOST + "gm106_host_sync.py", "RoundTrip"),
    "GM107": Cell(_HOST + "gm107_numpy_dtype.py", "HalfMask"),
    "GM201": Cell(_HOST + "gm201_set_data.py", "Grow"),
    "GM202": Cell(_HOST + "gm202_scratch.py", "Scratch"),
    "GM203": Cell(_HOST + "gm203_python_list_of_cells.py", "Stack", ("float32[B,8]",)),
    "GM204": Cell(_HOST + "gm204_constant_augassign.py", "RPNLoss"),
    "GM205": Cell("tests/verify_rules/weight_norm/gm205_weight_norm.py", "PositionalConv", ("float32[B,6,8]",)),
    "GM206": Cell(_HOST + "gm206_layer_built_in_graph.py", "ConcatNorm"),
    "GM301": Cell(_SHAPES + "gm301_len_of_tensor.py", "BatchFlatten"),
    "GM302": Cell(
        _SHAPES + "gm302_view_minus_one.py",
        "Flattens",
        unsafe=True,
        note="the rule's case is older MindSpore and MindSpore Lite's shape inference of a MindIR, which no check runs",
    ),
    "GM401": Cell(
        _SHAPES + "gm401_tensor_condition.py",
        "Branches",
        unsafe=True,
        note="the rule's case is a MindIR exported with a dynamic batch, which no check runs",
    ),
    "GM303": Cell(_SHAPES + "gm303_round_slice_bound.py", "KeepRate"),
    "GM304": Cell(_SHAPES + "gm304_dynamic_repeats.py", "AllPairs"),
    "GM305": Cell(_SHAPES + "gm305_numpy_where_dynamic.py", "Margin", ("float32[B,5]",)),
    "GM306": Cell(
        _SHAPES + "gm306_numpy_arange_dynamic.py", "GatherByLabel", ("float32[B,8,3]", "float32[B,2,1]{0,3}")
    ),
    "GM402": Cell(_SHAPES + "gm402_dynamic_loop.py", "PerRow"),
    "GM501": Cell(_TORCH + "gm501_torch_size.py", "Prenet", ("float32[B,4,8]",)),
    "GM502": Cell(_TORCH + "gm502_dim_keyword.py", "EveryEntry", ("float32[B,3,4]",), unsafe=True),
    "GM503": Cell(_TORCH + "gm503_torch_transpose.py", "Attention", ("float32[B,3,4,5]",)),
    "GM504": Cell(_TORCH + "gm504_argmax_no_axis.py", "Decoder", ("float32[B,3,4]",)),
    "GM505": Cell(_TORCH + "gm505_max_positional_axis.py", "Pairs", ("float32[B,3,4]",)),
    "GM506": Cell(_TORCH + "gm506_torch_expand.py", "Embeddings", ("float32[B,3,8,8]",)),
    "GM507": Cell(_TORCH + "gm507_torch_repeat.py", "Tiles", unsafe=True),
    "GM508": Cell(_TORCH + "gm508_device_move.py", "Head", ("float32[B,3,4]",)),
    "GM509": Cell(
        _TORCH + "gm509_dropout_training.py",
        "Attention",
        unsafe=True,
        train=True,
        note="measured in training mode, where the fix must keep dropping; in eval mode the original drops "
        "too (its reference is random, so the verifier compares shapes only) and the fix does not",
    ),
    "GM510": Cell(_TORCH + "gm510_torch_call.py", "Block"),
    "GM511": Cell(_TORCH + "gm511_einsum.py", "Einsums", ("float32[B,3,4,5]",)),
    "GM512": Cell(_TORCH + "gm512_mint_einsum.py", "MintEinsums", ("float32[B,2,3,4]",)),
    "GM601": Cell(_LIMITS + "gm601_list_alias_mutation.py", "Pyramid", ("float32[B,4]",)),
    "GM602": Cell(_LIMITS + "gm602_loop_else.py", "Search", ("float32[B,4]",)),
    "GM603": Cell(_LIMITS + "gm603_walrus.py", "Gate", ("float32[B,4]",)),
    "GM604": Cell(_LIMITS + "gm604_del_local.py", "Proj", ("float32[B,4]",)),
    "GM605": Cell(_LIMITS + "gm605_nested_comprehension.py", "Pairs", ("float32[B,4]",)),
    "GM606": Cell(_LIMITS + "gm606_unsupported_syntax.py", "Careful", ("float32[B,4]",)),
    "GM607": Cell(_LIMITS + "gm607_parameters_in_construct.py", "Regularised", ("float32[B,4]",), unsafe=True),
    "GM608": Cell(_LIMITS + "gm608_tensor_identity.py", "Same", ("float32[B,4]",)),
    "GM609": Cell(_LIMITS + "gm609_in_tensor.py", "Contains", ("float32[B,4]{-2,3}",)),
    "GM610": Cell(_LIMITS + "gm610_classmethod_in_graph.py", "Scaled", ("float32[B,4]",)),
    "GM612": Cell(_LIMITS + "gm612_block_local_variable.py", "Blocks", ("float32[B,4]",)),
    "GM614": Cell(_LIMITS + "gm614_duplicate_parameter_name.py", "Gates", ("float32[B,4]",), unsafe=True),
    "GM613": Cell(
        _LIMITS + "gm613_export_frozen_input.py",
        "Scaled",
        ("float32[B,4]", "int:2"),
        note="the export check calls the MindIR with the inputs it was exported with, so it passes; the file's "
        "`export_scaled` exports with `k = 2`, and tests/test_verify_limits.py loads both MindIRs and calls them "
        "with 3: the original's has no input for it, the fix's returns x * 3",
    ),
    "GM611": Cell(
        _LIMITS + "gm611_attribute_set_outside_graph.py",
        "Scaled",
        ("float32[B,4]",),
        note="the checks call the Cell with no setter in between, so every one passes; bench/limits row 10 "
        "(`attribute_set_by_method`) calls `set_k(3)` after the first call: GRAPH, STRICT and a dynamic batch "
        "still return 2 * x where PyNative returns 3 * x (docs/limits.md)",
    ),
}


@dataclass(frozen=True)
class Row:
    code: str
    cell: Cell | None
    applied: int = 0  # fixes the rule applied to the Cell
    report: Report | None = None


def measure(code: str, timeout: float = 300.0, verifier: Verifier | None = None) -> Row:
    """Compile `code`'s hostile Cell before and after its fix, in every configuration (on `verifier`'s
    workers when given: MindSpore imported once for many rules)."""
    cell = CELLS[code]
    if cell is None:
        return Row(code, None)
    path = REPO / cell.path
    result = fix_source(path.read_text(encoding="utf-8"), str(path), unsafe=cell.unsafe, select=[code])
    request = Request(path, result.output, cell.name, {}, list(cell.inputs), train=cell.train)
    if verifier is None:
        with Verifier(timeout=timeout) as verifier:
            return Row(code, cell, len(result.applied), verifier.verify(request))
    return Row(code, cell, len(result.applied), verifier.verify(request))


def measure_all(codes: Sequence[str], jobs: int = 2) -> list[Row]:
    """`measure` of every code, `jobs` Verifiers side by side, each taking every `jobs`-th code."""
    jobs = max(1, min(jobs, len(codes)))

    def share(first: int) -> list[Row]:
        with Verifier(timeout=300.0) as verifier:
            return [measure(code, verifier=verifier) for code in codes[first::jobs]]

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        rows = {row.code: row for part in pool.map(share, range(jobs)) for row in part}
    return [rows[code] for code in codes]


def render(rows: Sequence[Row], mindspore_version: str) -> str:
    """docs/evidence.md: one row a rule, then why each failing check failed."""
    lines = [
        "# What MindSpore does with each rule's pattern",
        "",
        f"Measured with MindSpore {mindspore_version} on CPU by `make evidence` (`python -m graphmend.evidence`):",
        "each rule's hostile Cell is compiled as written (*before*) and as graphmend fixes it with that rule",
        "alone (*after*), called twice in each configuration and compared with the original in PyNative.",
        "✓ passes with the numbers of PyNative, ✗ fails (the error or the difference is listed below);",
        "*same* means the rule has no fix there (a report only), so *after* is the code as written.",
        "*graph* is GRAPH_MODE with the default (LAX) syntax, *strict* `jit_syntax_level=STRICT`, *dynamic*",
        "the batch dimension left unknown (`set_inputs`, LAX) and called at two sizes, *export* a MindIR",
        "exported under STRICT with static shapes and loaded back.",
        "",
        "| rule | Cell | fixes | " + " | ".join(CHECKS) + " |",
        "|---|---|---|" + "---|" * len(CHECKS),
    ]
    details: list[str] = []
    for row in rows:
        lines.append(_row(row))
        details += _details(row)
    notes = [f"- {row.code}: {row.cell.note}" for row in rows if row.cell and row.cell.note]
    tail = ["", "## Notes", "", *notes] if notes else []
    return "\n".join([*lines, *tail, "", "## Failures", "", *(details or ["None."]), ""])


def _row(row: Row) -> str:
    name = f"{RULES[row.code].CODE} {RULES[row.code].NAME}"
    if row.cell is None or row.report is None:
        return f"| {name} | — | — | " + " | ".join("not a MindSpore pattern" for _ in CHECKS) + " |"
    verdicts = {(v.check, v.version): v for v in row.report.verdicts}
    cells = []
    for check in CHECKS:
        before, after = verdicts.get((check, "before")), verdicts.get((check, "after"))
        if before is None or after is None:
            cells.append("not run")
        elif not row.applied:
            cells.append(_mark(before) + " (same)")
        else:
            cells.append(f"{_mark(before)} → {_mark(after)}")
    where = f"`{row.cell.path}:{row.cell.name}`"
    return f"| {name} | {where} | {row.applied} | " + " | ".join(cells) + " |"


def _mark(verdict) -> str:
    return "✓" if verdict.passed else "✗"


def _details(row: Row) -> list[str]:
    if row.report is None:
        return []
    out = []
    for verdict in row.report.verdicts:
        if not verdict.passed and (verdict.version == "before" or row.applied):
            problem = " ".join((verdict.problem or "failed").split())
            out.append(f"- {row.code} {verdict.check} {verdict.version}: {_short(problem)}")
    if row.report.reference.version == "after":
        out.append(f"- {row.code}: the original fails in PyNative too; the fixed Cell in PyNative is the reference")
    return out


@dataclass(frozen=True)
class Measured:
    """What one rule's row says: the checks that failed before the fix (None: no Cell), and whether the
    original failed in PyNative too."""

    failing: frozenset[str] | None
    pynative: bool = False


def measured(row: Row) -> Measured:
    if row.report is None:
        return Measured(None)
    failing = frozenset(v.check for v in row.report.verdicts if v.version == "before" and not v.passed)
    return Measured(failing, row.report.reference.version == "after")


def disagreements(rows: Mapping[str, Measured]) -> list[str]:
    """Where a rule's BREAKS says something the measurement does not (one line each; empty: none)."""
    problems = []
    for code, row in rows.items():
        b, cell = RULES[code].BREAKS, CELLS.get(code)
        said = {t.value for t in b.measured}
        if row.failing is None:
            if not b.hygiene or said:
                problems.append(f"{code}: no Cell measures it, so BREAKS must be breaks(hygiene=True)")
            continue
        if said != row.failing:
            problems.append(f"{code}: BREAKS says it breaks under {_list(said)}; MindSpore {_version()} failed "
                            f"under {_list(row.failing)}")  # fmt: skip
        if row.pynative and not b.pynative:
            problems.append(f"{code}: the original fails in PyNative too; BREAKS must say pynative=True")
        if b.pynative and not row.pynative and not (cell and cell.note):
            problems.append(f"{code}: BREAKS says pynative=True, the original ran in PyNative and no note says why")
        if b.together and not (cell and cell.note):
            problems.append(f"{code}: BREAKS has together=, a case no check runs: say so in its Cell's note")
    return problems


def from_markdown(text: str) -> dict[str, Measured]:
    """The rows of docs/evidence.md, as `measured` gives them from a fresh run."""
    pynative = set(re.findall(r"^- (GM\d{3}): the original fails in PyNative too", text, re.MULTILINE))
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not re.fullmatch(r"GM\d{3} \S+", cells[0]) or len(cells) != 3 + len(CHECKS):
            continue
        code, marks = cells[0].split()[0], cells[3:]
        if all(m == "not a MindSpore pattern" for m in marks):
            rows[code] = Measured(None)
        else:
            rows[code] = Measured(frozenset(c for c, m in zip(CHECKS, marks, strict=True) if m.startswith("✗")),
                                  code in pynative)  # fmt: skip
    return rows


def _list(checks) -> str:
    return ", ".join(c for c in CHECKS if c in checks) or "nothing"


def _version() -> str:
    try:
        return metadata.version("mindspore")
    except metadata.PackageNotFoundError:
        return "(not installed)"


def _short(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m graphmend.evidence", description=__doc__.splitlines()[0])
    parser.add_argument("codes", nargs="*", help="rules to measure (default: every rule)")
    parser.add_argument("-o", "--output", type=Path, help="write the Markdown here instead of printing it")
    parser.add_argument("--jobs", type=int, default=2, help="Cells verified at once (each runs two workers)")
    parser.add_argument("--check", action="store_true", help="exit 1 when a rule's BREAKS disagrees with the run")
    args = parser.parse_args(argv)
    codes = [c.upper() for c in args.codes] or list(RULES)
    unknown = [c for c in codes if c not in CELLS]
    if unknown:
        parser.error(f"no hostile Cell for {', '.join(unknown)}: add it to CELLS in codemods/evidence.py")
    rows = measure_all(codes, args.jobs)
    text = render(rows, metadata.version("mindspore"))
    if args.output:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(text, encoding="utf-8")
        print(f"wrote {args.output} ({len(rows)} rules)", file=sys.stderr)
    else:
        print(text)
    if args.check:
        problems = disagreements({row.code: measured(row) for row in rows})
        for problem in problems:
            print(f"BREAKS disagrees: {problem}", file=sys.stderr)
        return 1 if problems else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
