"""Measure the real Cells before and after `graphmend fix`: bench/realcells/results.{json,md}.

For every Cell of cells.py, graphmend (the checkout this file is in, through `graphmend.fix_source`)
fixes the Cell's module in memory, once with the safe fixes and once with `--unsafe-fixes`, and the
verifier (`graphmend.verify`, MindSpore in child processes only) compiles the original and each fixed
version in every mode (GRAPH, STRICT, a dynamic batch, MindIR export), two calls each, against the
original in PyNative. A verify run is one worker per version, each importing MindSpore once and
running all the modes of its version; the unsafe run is skipped when it changes nothing more than
the safe one. `--jobs N` runs N Cells at a time (each with its two workers: on 2 cores, 1).

    .venv/bin/python bench/realcells/run.py [--jobs 1] [KEY-SUBSTRING...]   # `make realcells`

What the verifier cannot express (issue 15): it runs a rewritten version in PyNative only when the
original fails there. So for every Cell a fix changed, one more child process (pynative.py, the
verifier's own worker code) runs the original and each rewrite in PyNative and compares their numbers:
the *pynative* column.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path[:0] = [str(HERE), str(REPO)]

from cells import CELLS, NOTES, Cell  # noqa: E402
from fetch import SITE, SRC, fetched  # noqa: E402

from graphmend import fix_source  # noqa: E402
from graphmend.verify import CHECKS, Report, staging, verify  # noqa: E402
from graphmend.verify import specs as spec_text  # noqa: E402

# the MindSpore workers (and pynative.py) import mindnlp's requirements from there (fetch.py, SITE)
os.environ["PYTHONPATH"] = os.pathsep.join([str(SITE), *filter(None, [os.environ.get("PYTHONPATH")])])

MODES = ("pynative", *CHECKS)
VARIANTS = ("before", "safe", "unsafe")
TIMEOUT = 180.0


@dataclass(frozen=True)
class Measured:
    cell: Cell
    findings: list[dict]  # graphmend's findings on the Cell before any fix
    applied: dict[str, list[str]]  # variant -> codes of the fixes applied to the Cell
    modes: dict[str, dict[str, dict]]  # mode -> variant -> {"status", "problem"}
    wall_s: float
    reference: str | None = "before"  # whose PyNative run the modes were compared with; None: nobody's


def measure(cell: Cell) -> Measured:
    started = time.perf_counter()
    path = SRC / cell.package / cell.path
    source = path.read_text(encoding="utf-8")
    span, outside = _class_span(source, cell.name), _module_lines(source)
    fixes = {v: fix_source(source, str(path), unsafe=v == "unsafe") for v in ("safe", "unsafe")}
    mine = {v: [f for f in r.applied if _in_cell(f, cell.name, span, outside)] for v, r in fixes.items()}
    reports = {"safe": _verify(cell, path, fixes["safe"].output)}
    same = fixes["unsafe"].output == fixes["safe"].output
    reports["unsafe"] = reports["safe"] if same else _verify(cell, path, fixes["unsafe"].output)
    return Measured(
        cell=cell,
        findings=[_finding(f) for f in fixes["unsafe"].findings if _in_cell(f, cell.name, span, outside)],
        applied={v: sorted(f.code for f in fs) for v, fs in mine.items()},
        modes=_modes(reports, _in_pynative(cell, path, source, fixes)),
        wall_s=time.perf_counter() - started,
        reference=reports["safe"].reference.version or reports["unsafe"].reference.version,
    )


def _finding(f) -> dict:
    return {"line": f.line, "code": f.code, "fix": str(f.fix) if f.fix else None, "message": f.message}


def _verify(cell: Cell, path: Path, rewritten: str) -> Report:
    return verify(path, rewritten, cell.name, cell.init, list(cell.inputs), train=cell.train, timeout=TIMEOUT)


def _in_pynative(cell: Cell, path: Path, source: str, fixes: dict) -> dict[str, dict]:
    """variant -> the rewrite in PyNative against the original in PyNative (pynative.py, one process)."""
    changed = {v: r.output for v, r in fixes.items() if r.output != source}
    if fixes["unsafe"].output == fixes["safe"].output:
        changed.pop("unsafe", None)
    if not changed:
        return {}
    module = staging.locate(path)
    with tempfile.TemporaryDirectory(prefix="graphmend-realcells-") as tmp:
        versions = [{"label": "before", **_where(staging.original_version(module))}]
        for variant, output in changed.items():
            versions.append(
                {"label": variant, **_where(staging.rewritten_version(module, output, Path(tmp) / variant))}
            )
        inputs = [spec_text.to_json(s) for s in spec_text.parse_specs(list(cell.inputs))]
        common = {"cell": cell.name, "init": cell.init, "inputs": inputs, "inputs_from": None, "train": cell.train,
                  "seed": 0, "rtol": None, "atol": None}  # fmt: skip
        config = Path(tmp) / "config.json"
        config.write_text(json.dumps({"common": common, "versions": versions}), encoding="utf-8")
        command = [sys.executable, str(HERE / "pynative.py"), str(config)]
        try:
            done = subprocess.run(command, cwd=tmp, capture_output=True, text=True, timeout=TIMEOUT)
            replies = json.loads(done.stdout.strip().splitlines()[-1])
        except (subprocess.TimeoutExpired, ValueError, IndexError):
            return {v: {"status": "fail", "problem": "pynative.py gave no result (timeout or crash)"} for v in changed}
    got = {v: _pynative_reply(replies.get(v, {})) for v in changed}
    if "unsafe" not in got:
        got["unsafe"] = got["safe"] if "safe" in got else None
    return {v: r for v, r in got.items() if r is not None}


def _where(version: staging.Version) -> dict:
    return {"module": version.module.name, "sys_path": list(version.sys_path), "user_roots": list(version.user_roots)}


def _pynative_reply(reply: dict) -> dict:
    if reply.get("status") == "pass":
        return {"status": "pass", "problem": None}
    if reply.get("error"):
        error = reply["error"]
        return _fail(f"{reply.get('stage')}: {error['type']}: {error['message']}")
    wrong = reply.get("items") or [{"name": "?", "problem": "no result"}]
    return _fail(f"PyNative numbers differ from the original's: {wrong[0]['name']}: {wrong[0]['problem']}")


def _modes(reports: dict[str, Report], direct: dict[str, dict]) -> dict[str, dict[str, dict]]:
    safe = reports["safe"]
    modes: dict[str, dict[str, dict]] = {"pynative": _pynative(reports, direct)}
    for check in CHECKS:
        if check not in safe.checks:
            continue
        row = {"before": _status(safe.verdict(check, "before"))}
        row |= {v: _status(reports[v].verdict(check, "after")) for v in ("safe", "unsafe")}
        modes[check] = row
    return modes


def _pynative(reports: dict[str, Report], direct: dict[str, dict]) -> dict[str, dict]:
    """before: the verifier's reference run; a rewrite: pynative.py's comparison, or the same source."""
    failed = dict(reports["safe"].reference.failures)
    row = {"before": _fail(failed["before"].summary()) if "before" in failed else {"status": "pass", "problem": None}}
    for variant in ("safe", "unsafe"):
        row[variant] = direct.get(variant) or {"status": "same", "problem": None}
    return row


def _status(verdict) -> dict:
    if verdict.passed:
        return {"status": "pass" if verdict.values_compared else "pass (shapes)", "problem": None}
    return _fail(verdict.problem or "fails")


def _fail(problem: str) -> dict:
    return {"status": "fail", "problem": problem.splitlines()[0][:300]}


def _class_span(source: str, name: str) -> tuple[int, int]:
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef) and node.name == name:
            return node.lineno, node.end_lineno or node.lineno
    raise LookupError(f"no class {name}")


def _module_lines(source: str) -> set[int]:
    """The lines of the module's own statements (its imports), outside every class and function."""
    tree = ast.parse(source)
    return {n for node in tree.body if not isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            for n in range(node.lineno, (node.end_lineno or node.lineno) + 1)}  # fmt: skip


def _in_cell(finding, name: str, span: tuple[int, int], outside: set[int]) -> bool:
    """A finding in the class, in a helper it calls (its message names `Class.method`), or on a statement of
    the module itself (GM205's import of `weight_norm`: the file's, and so every Cell's of it)."""
    return span[0] <= finding.line <= span[1] or f"`{name}." in finding.message or finding.line in outside


# -- the summary -------------------------------------------------------------------------------


def passed(entry: dict) -> bool:
    return entry["status"].startswith("pass")


def after(row: dict, variant: str) -> dict:
    """A variant that is the original's source has the original's result."""
    return row["before"] if row[variant]["status"] == "same" else row[variant]


# unsafe fixes whose point is to change the numbers, as their finding says: their changes are counted
# apart, not as breakage (a Cell of these is "changed as announced" when only such rules' unsafe fixes
# differ from its safe version)
ANNOUNCED = {"GM509": "`ops.dropout(...)` without `training=` drops in an eval-mode Cell; the fix stops it"}


def _announced(r: Measured, variant: str) -> bool:
    extra = set(r.applied[variant]) - set(r.applied["safe"])
    return variant == "unsafe" and bool(extra) and extra <= set(ANNOUNCED)


def summarize(rows: list[Measured]) -> dict:
    unmeasured = [r.cell.key for r in rows if r.reference is None]
    rows = [r for r in rows if r.reference is not None]
    pairs = [(r, m, row) for r in rows for m, row in r.modes.items() if m != "pynative"]
    failing = [(r, m, row) for r, m, row in pairs if not passed(row["before"])]
    summary = {"cells": len(rows), "unmeasured": unmeasured, "pairs": len(pairs), "failing_before": len(failing)}
    for variant in ("safe", "unsafe"):
        fixed = [p for p in failing if passed(after(p[2], variant))]
        broke = [p for p in pairs if passed(p[2]["before"]) and not passed(after(p[2], variant))]
        differ = [
            p
            for p in pairs
            if "values differ" in (p[2][variant]["problem"] or "")
            and "values differ" not in (p[2]["before"]["problem"] or "")
        ]
        changed = [
            r
            for r in rows
            if passed(r.modes["pynative"]["before"]) and r.modes["pynative"][variant]["status"] == "fail"
        ]
        announced = sorted({r.cell.key for r in rows if _announced(r, variant)})
        summary[variant] = {
            "fixed": len(fixed),
            "share": round(len(fixed) / len(failing), 3) if failing else None,
            "passed_before_fail_after": [f"{r.cell.key} {m}" for r, m, _ in broke if r.cell.key not in announced],
            "new_value_differences": [f"{r.cell.key} {m}" for r, m, _ in differ if r.cell.key not in announced],
            "pynative_changed": [r.cell.key for r in changed if r.cell.key not in announced],
            "changed_as_announced": [r.cell.key for r in changed if r.cell.key in announced]
            + [f"{r.cell.key} {m}" for r, m, _ in broke if r.cell.key in announced],
        }
    clean = [r for r in rows if all(passed(row["before"]) for row in r.modes.values())]
    summary["noise"] = {
        "cells_passing_everything_before": len(clean),
        "fixes_on_them": {v: sum(len(r.applied[v]) for r in clean) for v in ("safe", "unsafe")},
        "cells_changed": sorted(r.cell.key for r in clean if r.applied["unsafe"]),
    }
    return summary


def render(rows: list[Measured], summary: dict, wall: float) -> str:
    s, u = summary["safe"], summary["unsafe"]
    lines = [
        "# Real Cells before and after `graphmend fix`",
        "",
        f"{len(rows)} `nn.Cell` classes from public MindSpore wheels (bench/realcells/cells.py), each",
        "compiled by the verifier as written (*before*), after `graphmend fix` (*safe*) and after",
        "`graphmend fix --unsafe-fixes` (*unsafe*), two calls per mode, against the original in PyNative;",
        f"MindSpore 2.10 on CPU, `make realcells` ({wall / 60:.0f} min wall).",
        "",
        f"- (Cell, mode) pairs: {summary['pairs']} compiled (graph, strict, dynamic, export) on "
        f"{summary['cells']} Cells, {summary['failing_before']} failing before. Not counted: "
        f"{len(summary['unmeasured'])} Cells that no version runs in PyNative, so that nothing can be compared "
        + _list(summary["unmeasured"]),
        f"- **safe fixes: {s['fixed']} of {summary['failing_before']} failing pairs pass with PyNative's numbers "
        f"({_pct(s['share'])})**; unsafe: {u['fixed']} ({_pct(u['share'])}).",
        f"- pairs that passed before and fail after: safe {len(s['passed_before_fail_after'])}, "
        f"unsafe {len(u['passed_before_fail_after'])} "
        + _list(s["passed_before_fail_after"] + u["passed_before_fail_after"]),
        f"- fixes that change the numbers (an after that runs and differs, where before did not): safe "
        f"{len(s['new_value_differences'])}, unsafe {len(u['new_value_differences'])} "
        f"{_list(s['new_value_differences'] + u['new_value_differences'])}",
        f"- rewrites whose PyNative run fails or differs from the original's (pynative.py): safe "
        f"{len(s['pynative_changed'])}, unsafe {len(u['pynative_changed'])} "
        + _list(s["pynative_changed"] + u["pynative_changed"]),
        "- unsafe fixes that change the numbers as their finding says ("
        + ", ".join(f"{code}: {why}" for code, why in ANNOUNCED.items())
        + f"), not counted above: {len(u.get('changed_as_announced', []))} "
        + _list(u.get("changed_as_announced", [])),
        f"- noise: {summary['noise']['cells_passing_everything_before']} Cells pass every mode before; graphmend "
        f"applies {summary['noise']['fixes_on_them']['safe']} safe and {summary['noise']['fixes_on_them']['unsafe']} "
        f"safe+unsafe fixes to them {_list(summary['noise']['cells_changed'])}",
        "",
        "Each mode is *before → safe → unsafe*: ✓ passes with PyNative's numbers (✓s: shapes and dtypes only,",
        "random), ✗ fails, = the fix left the source as it was (so the result is *before*'s).",
        "",
        "| Cell | findings | fixes safe / unsafe | " + " | ".join(MODES) + " |",
        "|---|---|---|" + "---|" * len(MODES),
    ]
    details = []
    for r in rows:
        codes = ", ".join(sorted({f["code"] for f in r.findings})) or "—"
        fixes = f"{_codes(r.applied['safe'])} / {_codes(r.applied['unsafe'])}"
        cells = [_cell(r.modes.get(m)) for m in MODES]
        lines.append(f"| `{r.cell.key}` | {codes} | {fixes} | " + " | ".join(cells) + " |")
        details += _details(r)
    return "\n".join([*lines, "", "## What still fails after the fixes", "", *(details or ["Nothing."]), ""])


def _details(r: Measured) -> list[str]:
    """The modes still failing after the fixes: each version's error, and why (NOTES)."""
    out = []
    for mode, row in r.modes.items():
        if all(passed(after(row, v)) for v in ("safe", "unsafe")):
            continue
        out.append(f"- `{r.cell.key}` {mode}:")
        for variant in VARIANTS:
            entry = row[variant] if variant == "before" else after(row, variant)
            shown = "passes" if passed(entry) else entry["problem"]
            out.append(f"  - {variant}: {shown}" + (" (the source as it was)" * (row[variant]["status"] == "same")))
    if out:
        out.append(f"  - **why**: {NOTES.get(r.cell.key, 'not explained yet')}")
    return out


def _cell(row: dict | None) -> str:
    if row is None:
        return "—"
    return " → ".join(_mark(row[v]) for v in VARIANTS)


def _mark(entry: dict) -> str:
    return {"pass": "✓", "pass (shapes)": "✓s", "fail": "✗", "same": "="}.get(entry["status"], "·")


def _codes(codes: list[str]) -> str:
    return ", ".join(f"{c}×{codes.count(c)}" if codes.count(c) > 1 else c for c in sorted(set(codes))) or "0"


def _pct(share: float | None) -> str:
    return "—" if share is None else f"{share:.0%}"


def _list(items: list[str]) -> str:
    return f"({', '.join(items)})" if items else ""


def _loaded(entry: dict) -> Measured:
    cell = next(c for c in CELLS if c.key == entry["key"])
    return Measured(cell, entry["findings"], entry["applied"], entry["modes"], entry["wall_s"], entry["reference"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", "-j", type=int, default=1, help="Cells at a time (each runs two MindSpore workers)")
    parser.add_argument("--out", type=Path, default=HERE / "results", help="writes OUT.json and OUT.md")
    parser.add_argument("keys", nargs="*", help="only the Cells whose key contains one of these")
    parser.add_argument("--render", action="store_true", help="rewrite OUT.md from OUT.json, running nothing")
    args = parser.parse_args()
    if args.render:
        data = json.loads(args.out.with_suffix(".json").read_text(encoding="utf-8"))
        rows = [_loaded(entry) for entry in data["cells"]]
        args.out.with_suffix(".md").write_text(render(rows, summarize(rows), data["wall_s"]), encoding="utf-8")
        return
    if not fetched():
        sys.exit("the wheels are not fetched: run .venv/bin/python bench/realcells/fetch.py")
    chosen = [c for c in CELLS if not args.keys or any(k in c.key for k in args.keys)]
    started = time.perf_counter()
    with ThreadPoolExecutor(max(args.jobs, 1)) as pool:
        rows = []
        for row in pool.map(measure, chosen):
            print(
                f"{row.cell.key:<60} {row.wall_s:6.1f} s  " + " ".join(f"{m}:{_cell(row.modes[m])}" for m in row.modes),
                flush=True,
            )
            rows.append(row)
    wall = time.perf_counter() - started
    summary = summarize(rows)
    data = {
        "wall_s": round(wall, 1),
        "jobs": args.jobs,
        "summary": summary,
        "cells": [
            {
                "key": r.cell.key,
                "package": r.cell.package,
                "path": r.cell.path,
                "name": r.cell.name,
                "init": r.cell.init,
                "inputs": r.cell.inputs,
                "train": r.cell.train,
                "why": r.cell.why,
                "findings": r.findings,
                "applied": r.applied,
                "modes": r.modes,
                "reference": r.reference,
                "wall_s": round(r.wall_s, 1),
            }
            for r in rows
        ],
    }
    args.out.with_suffix(".json").write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    args.out.with_suffix(".md").write_text(render(rows, summary, wall), encoding="utf-8")
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
