"""`verify()`: two sources of one Cell in, a Report out. See the package docstring."""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from . import specs as spec_text
from .jobs import Outcome, Plan, execute
from .process import Launch, Runner, WorkerStartError, default_memory_limit
from .report import CHECKS, VERSIONS, Comparison, Failure, Location, Reference, Report, Timings, Verdict
from .staging import Module, Version, display_path, locate, original_version, rewritten_version, shown

SEED = 0
RANDOM_NOTE = "values not compared: random"
LOUD = 1_000_000  # a check whose worker printed more bytes than this says so (output is never shown)


class UsageError(ValueError):
    """The caller asked for something that cannot be run; the message says what to change."""


def verify(
    original: Path,
    rewritten_source: str,
    cell: str,
    init: dict | None = None,
    inputs: Sequence[str] = (),
    *,
    checks: Sequence[str] | None = None,
    python: str | None = None,
    timeout: float = 120.0,
    rtol: float | None = None,
    atol: float | None = None,
    train: bool = False,
    inputs_from: Path | None = None,
    module: str | None = None,
    rewritten_label: str | None = None,
    memory_limit: float | None = None,
) -> Report:
    """Run `cell` of both versions through every check and compare each with PyNative.

    `memory_limit` is in GB of resident memory per worker: None is a quarter of the machine's
    memory, 0 no limit. A worker over it is killed and its job fails.
    Raises UsageError for anything the caller can fix (a bad spec, an unknown check, a missing
    file, an interpreter without MindSpore); user code that fails is a verdict, never an error.
    """
    started = time.perf_counter()
    limit = _memory_limit(memory_limit)
    parsed = _parse_inputs(inputs, inputs_from)
    plan = Plan(_pick_checks(checks, parsed))
    mod = _locate(original, module)
    labels = (shown(str(mod.path)), rewritten_label or f"{shown(str(mod.path))} (rewritten by graphmend)")
    with tempfile.TemporaryDirectory(prefix="graphmend-verify-") as tmp:
        versions = {
            "before": original_version(mod),
            "after": rewritten_version(mod, rewritten_source, Path(tmp) / "src"),
        }
        config = _config(cell, init or {}, parsed, inputs_from, train, rtol, atol)
        runners = {v: Runner(_launch(v, versions[v], config, Path(tmp), python, timeout, limit)) for v in VERSIONS}
        try:
            outcome = execute(plan, runners, Path(tmp))
        except WorkerStartError as exc:
            raise UsageError(str(exc)) from None
        finally:
            for runner in runners.values():
                runner.close()
        where = _Paths(versions, mod, labels[1])
        verdicts = tuple(_verdict(c, v, outcome.checks[c, v], where) for c in plan.checks for v in VERSIONS)
        imports = tuple(s for r in runners.values() for s in r.import_seconds)
    return Report(
        target=f"{labels[0]}:{cell}",
        original=labels[0],
        rewritten=labels[1],
        inputs=tuple(spec_text.describe(s) for s in parsed) or _npz_label(inputs_from),
        checks=plan.checks,
        reference=_reference(outcome, where),
        verdicts=verdicts,
        timings=Timings(time.perf_counter() - started, imports, sum(v.compile_s or 0.0 for v in verdicts)),
        notes=("the two versions are the same source",)
        if mod.path.read_text(encoding="utf-8") == rewritten_source
        else (),
    )


# -- arguments -----------------------------------------------------------------------------------


def _parse_inputs(inputs: Sequence[str], inputs_from: Path | None) -> tuple[spec_text.Spec, ...]:
    if inputs and inputs_from:
        raise UsageError("give either --input specs or --inputs-from, not both")
    if inputs_from and not Path(inputs_from).is_file():
        raise UsageError(f"--inputs-from {inputs_from}: no such file")
    try:
        return spec_text.parse_specs(list(inputs))
    except spec_text.SpecError as exc:
        raise UsageError(str(exc)) from None


def applicable(checks: Sequence[str], inputs: Sequence[str], inputs_from: Path | None = None) -> list[str]:
    """`checks` without `dynamic` when no input has a named dimension (a target's checks, as the default
    leaves it out); a bad spec is left for `verify` to report."""
    try:
        dynamic = not inputs_from and spec_text.is_dynamic(spec_text.parse_specs(list(inputs)))
    except spec_text.SpecError:
        dynamic = False
    return [c for c in checks if c != "dynamic" or dynamic]


def _pick_checks(checks: Sequence[str] | None, parsed: tuple[spec_text.Spec, ...]) -> tuple[str, ...]:
    dynamic = spec_text.is_dynamic(parsed)
    if checks is None:
        return tuple(c for c in CHECKS if c != "dynamic" or dynamic)
    unknown = [c for c in checks if c not in CHECKS]
    if unknown or not checks:
        raise UsageError(f"unknown check {', '.join(unknown) or '(none)'}: choose from {', '.join(CHECKS)}")
    if "dynamic" in checks and not dynamic:
        raise UsageError("the dynamic check needs a named dimension in an --input, e.g. float32[B,3,8,8]")
    return tuple(c for c in CHECKS if c in checks)


def _locate(original: Path, module: str | None) -> Module:
    if not Path(original).is_file():
        raise UsageError(f"{original}: no such file")
    return locate(Path(original), module)


def _config(cell, init, parsed, inputs_from, train, rtol, atol) -> dict:
    if not isinstance(init, dict):
        raise UsageError(f"the init arguments must be a JSON object of keyword arguments, not {init!r}")
    return {
        "cell": cell,
        "init": init,
        "inputs": [spec_text.to_json(s) for s in parsed],
        "inputs_from": str(Path(inputs_from).resolve()) if inputs_from else None,
        "train": train,
        "seed": SEED,
        "rtol": rtol,
        "atol": atol,
    }


def _memory_limit(gigabytes: float | None) -> int | None:
    if gigabytes is None:
        return default_memory_limit()
    if gigabytes < 0:
        raise UsageError(f"the memory limit must be a number of GB, or 0 for none, not {gigabytes:g}")
    return int(gigabytes * 1e9) or None


def _launch(
    version: str,
    files: Version,
    config: dict,
    tmp: Path,
    python: str | None,
    timeout: float,
    limit: int | None,
) -> Launch:
    cwd = tmp / f"work-{version}"
    cwd.mkdir()
    where = {
        "module": files.module.name,
        "sys_path": list(files.sys_path),
        "fallback_path": os.getcwd(),  # as `python -m` would see the project the user runs from
        "user_roots": list(files.user_roots),
    }
    return Launch(python or sys.executable, config | where, cwd, files.user_roots, timeout, limit)


# -- replies to verdicts -------------------------------------------------------------------------


class _Paths:
    """Turns paths a worker reported into the ones the user knows."""

    def __init__(self, versions: dict[str, Version], original: Module, label: str):
        self.rewritten, self.original, self.label = versions["after"], original, label

    def location(self, raw: dict | None) -> Location | None:
        if not raw:
            return None
        return Location(display_path(raw["path"], self.rewritten, self.original, self.label), raw["line"], raw["code"])


def _verdict(check: str, version: str, reply: dict, where: _Paths) -> Verdict:
    comparisons = tuple(Comparison(i["name"], i["problem"], i["max_abs"], i["max_rel"]) for i in reply.get("items", []))
    values_compared = reply.get("values_compared", True)
    notes = [reply.get("note"), None if values_compared else RANDOM_NOTE, _printed(reply.get("printed", 0))]
    return Verdict(
        check=check,
        version=version,
        passed=reply["status"] == "pass",
        compile_s=reply.get("compile_s"),
        run_s=reply.get("run_s"),
        comparisons=comparisons,
        failure=_failure(reply, where),
        note="; ".join(n for n in notes if n) or None,
        values_compared=values_compared,
    )


def _printed(size: int) -> str | None:
    return f"printed {size / 1e6:.1f} MB (not shown)" if size > LOUD else None


def _failure(reply: dict, where: _Paths) -> Failure | None:
    error = reply.get("error")
    if not error:
        return None
    return Failure(reply["stage"], error["type"], error["message"], where.location(error["where"]))


def _reference(outcome: Outcome, where: _Paths) -> Reference:
    chosen = outcome.reference_version
    failures = tuple((v, _failure(r, where)) for v, r in outcome.references.items() if r["status"] != "pass")
    random = bool(chosen and outcome.references[chosen].get("random"))
    return Reference(chosen, random, failures)


def _npz_label(inputs_from: Path | None) -> tuple[str, ...]:
    return (f"arrays from {inputs_from}",) if inputs_from else ()
