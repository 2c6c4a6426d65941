"""`verify()`: two sources of one Cell in, a Report out; a `Verifier` (and `verify_all`) does many on one
pair of workers. See the package docstring."""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from . import cell_source
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


@dataclass(frozen=True)
class Request:
    """One Cell to verify: what `verify` takes besides the run's own settings (interpreter, timeout,
    memory limit), with the same meanings."""

    original: Path
    rewritten_source: str
    cell: str
    init: dict | None = None
    inputs: Sequence[str] = ()
    checks: Sequence[str] | None = None
    rtol: float | None = None
    atol: float | None = None
    train: bool = False
    inputs_from: Path | None = None
    module: str | None = None
    rewritten_label: str | None = None
    recorded: dict | None = None  # a sample of a recording (recording.Recording.requests), instead of init/inputs
    also: tuple[tuple[Path, str], ...] = ()  # other rewritten files (path, source) the after version imports


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
    request = Request(original, rewritten_source, cell, init, tuple(inputs), checks, rtol, atol, train,
                      inputs_from, module, rewritten_label)  # fmt: skip
    with Verifier(python=python, timeout=timeout, memory_limit=memory_limit) as verifier:
        return verifier.verify(request)


def verify_all(
    requests: Sequence[Request],
    *,
    python: str | None = None,
    timeout: float = 120.0,
    memory_limit: float | None = None,
) -> list[Report]:
    """`verify` of each request, in order, on one pair of workers (a `Verifier`). Every request is
    checked before any worker starts: a bad one raises UsageError and runs nothing."""
    ready = [_Prepared.of(request) for request in requests]
    with Verifier(python=python, timeout=timeout, memory_limit=memory_limit) as verifier:
        return [verifier._run(prepared) for prepared in ready]


class Verifier:
    """A verify run that keeps its workers between requests: MindSpore is imported once per version for
    all of them (again only after a crash, a hang or a kill), and before each request a worker forgets
    the modules of the previous one's tree, so each Cell is imported from its own files.

        with Verifier(timeout=120.0) as verifier:
            for request in requests:
                report = verifier.verify(request)  # UsageError for a request that cannot run

    One request at a time (the two versions of a request run side by side). What the workers share is
    the process: each check sets the mode and syntax level it needs and builds a fresh instance, but a
    module that changes other global MindSpore settings when imported changes them for the requests
    after it; such a Cell is verified alone with `verify`.
    """

    def __init__(self, *, python: str | None = None, timeout: float = 120.0, memory_limit: float | None = None):
        self.python, self.timeout, self.limit = python, timeout, _memory_limit(memory_limit)
        self._runners: dict[str, Runner] = {}
        self._tmp: tempfile.TemporaryDirectory | None = None
        self._count = 0

    def __enter__(self) -> Verifier:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        for runner in self._runners.values():
            runner.close()
        self._runners.clear()
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def verify(self, request: Request) -> Report:
        return self._run(_Prepared.of(request))

    def _run(self, prepared: _Prepared) -> Report:
        if self._tmp is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="graphmend-verify-")
        self._count += 1
        return prepared.run(Path(self._tmp.name), self._count, self._runners, self.python, self.timeout, self.limit)


@dataclass(frozen=True)
class _Prepared:
    """A request whose arguments were checked: its plan, its module, its labels."""

    request: Request
    parsed: tuple[spec_text.Spec, ...]
    plan: Plan
    mod: Module
    labels: tuple[str, str]

    @classmethod
    def of(cls, request: Request) -> _Prepared:
        parsed = _parse_inputs(request.inputs, request.inputs_from)
        mod = _locate(request.original, request.module)
        if request.recorded is None:
            plan = Plan(_pick_checks(request.checks, parsed))
            _check_against_source(cell_source.read(mod.path, request.cell), request, parsed)
        else:
            plan = Plan(_pick_recorded(request.checks, request.recorded))
        name = shown(str(mod.path))
        labels = (name, request.rewritten_label or f"{name} (rewritten by graphmend)")
        _config(request.cell, request.init or {}, parsed, request.inputs_from, request.train, request.rtol,
                request.atol, request.recorded)  # fmt: skip
        return cls(request, parsed, plan, mod, labels)

    def run(self, tmp: Path, index: int, runners: dict[str, Runner], python, timeout, limit) -> Report:
        """Verify on `runners` (made or loaded with this request's configuration), its files under `tmp`."""
        started = time.perf_counter()
        r, mod = self.request, self.mod
        data = tmp / f"cell-{index}"
        data.mkdir()
        versions = {
            "before": original_version(mod),
            "after": rewritten_version(mod, r.rewritten_source, data / "src", r.also),
        }
        config = _config(r.cell, r.init or {}, self.parsed, r.inputs_from, r.train, r.rtol, r.atol, r.recorded)
        imported = {v: len(runners[v].import_seconds) if v in runners else 0 for v in VERSIONS}
        for version in VERSIONS:
            launch = _launch(version, versions[version], config, tmp, python, timeout, limit)
            if version in runners:
                runners[version].load(launch)
            else:
                runners[version] = Runner(launch)
        try:
            outcome = execute(self.plan, runners, data)
        except WorkerStartError as exc:
            raise UsageError(str(exc)) from None
        where = _Paths(versions, mod, self.labels[1])
        verdicts = tuple(_verdict(c, v, outcome.checks[c, v], where) for c in self.plan.checks for v in VERSIONS)
        imports = tuple(s for v in VERSIONS for s in runners[v].import_seconds[imported[v] :])
        inputs, notes = _recorded_text(r.recorded) if r.recorded else (None, ())
        same = mod.path.read_text(encoding="utf-8") == r.rewritten_source and not r.also
        notes += tuple(f"with {shown(str(path))} as rewritten by graphmend" for path, _ in r.also)
        return Report(
            target=f"{self.labels[0]}:{r.cell}",
            original=self.labels[0],
            rewritten=self.labels[1],
            inputs=inputs or tuple(spec_text.describe(s) for s in self.parsed) or _npz_label(r.inputs_from),
            checks=self.plan.checks,
            reference=_reference(outcome, where),
            verdicts=verdicts,
            timings=Timings(time.perf_counter() - started, imports, sum(v.compile_s or 0.0 for v in verdicts)),
            notes=(("the two versions are the same source",) if same else ()) + notes,
            train=r.train,
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


def _pick_recorded(checks: Sequence[str] | None, recorded: dict) -> tuple[str, ...]:
    """The checks of a recorded call: the dynamic one only with a second recorded call of other sizes."""
    wanted = CHECKS if checks is None else checks
    unknown = [c for c in wanted if c not in CHECKS]
    if unknown:
        raise UsageError(f"unknown check {', '.join(unknown)}: choose from {', '.join(CHECKS)}")
    dynamic = recorded.get("partner") is not None
    chosen = tuple(c for c in CHECKS if c in wanted and (c != "dynamic" or dynamic))
    if not chosen:
        raise UsageError("the dynamic check needs two recorded calls of other sizes; the recording has one")
    return chosen


def _recorded_text(recorded: dict) -> tuple[tuple[str, ...], tuple[str, ...]]:
    from .recording import describe  # it builds Requests: imported when a recorded one runs

    return describe(recorded)


def _check_against_source(source: cell_source.CellSource | None, request: Request, parsed) -> None:
    """A spec that cannot fit the Cell's own signatures fails here, at once, naming the signature: not in
    a worker after MindSpore's import, once per check and version."""
    if source is None:
        return
    construct, init, cell = source.construct, source.init, request.cell
    if construct is not None and request.inputs_from is None and not construct.takes(len(parsed)):
        after = "" if construct.static else " after self"
        raise UsageError(f"{cell}.{construct.text} takes {construct.expects()}{after}, "
                         f"{len(parsed)} given: one --input per parameter")  # fmt: skip
    given = set(request.init or {})
    if init is not None and (unknown := init.unknown(given)):
        raise UsageError(f"{cell}.{init.text} has no parameter {', '.join(unknown)} (--init)")
    if init is not None and (missing := init.missing(given)):
        example = ", ".join(f'"{name}": ...' for name in missing)
        raise UsageError(f"{cell}.{init.text} needs {', '.join(missing)}: --init '{{{example}}}'")


def _locate(original: Path, module: str | None) -> Module:
    if not Path(original).is_file():
        raise UsageError(f"{original}: no such file")
    return locate(Path(original), module)


def _check_refs(value) -> None:
    """Every `{"$ref": "module:name", "kwargs": {...}}` of the init arguments is well formed (the worker
    imports and calls it; a typo is told here, before MindSpore starts)."""
    if isinstance(value, list):
        for item in value:
            _check_refs(item)
    if not isinstance(value, dict):
        return
    if "$ref" in value:
        ref, kwargs = value["$ref"], value.get("kwargs", {})
        module, _, name = ref.partition(":") if isinstance(ref, str) else ("", "", "")
        if not (module and name) or set(value) - {"$ref", "kwargs"} or not isinstance(kwargs, dict):
            raise UsageError(
                f'--init: {json.dumps(value)} is not {{"$ref": "module:name"}} or '
                '{"$ref": "module:name", "kwargs": {...}} (a dtype: "mindspore:float16"; a config: '
                '"pkg.configuration:Config" with its keyword arguments)'
            )
        _check_refs(kwargs)
        return
    for item in value.values():
        _check_refs(item)


def _config(cell, init, parsed, inputs_from, train, rtol, atol, recorded=None) -> dict:
    if not isinstance(init, dict):
        raise UsageError(f"the init arguments must be a JSON object of keyword arguments, not {init!r}")
    _check_refs(init)
    return {
        "cell": cell,
        "init": init,
        "inputs": [spec_text.to_json(s) for s in parsed],
        "inputs_from": str(Path(inputs_from).resolve()) if inputs_from else None,
        "train": train,
        "seed": SEED,
        "rtol": rtol,
        "atol": atol,
        "recorded": recorded,
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
    cwd = tmp / f"work-{version}"  # one per version for the whole run: a worker serves every request
    cwd.mkdir(exist_ok=True)
    where = {
        "module": files.module.name,
        "module_file": str(files.module.path),  # a file name that is no identifier is imported from it
        "package": files.module.package,
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
    # known at once for a training Dropout, else found out by a check whose values differed
    random = bool(chosen and outcome.references[chosen].get("random")) or any(
        reply.get("random") for reply in outcome.checks.values()
    )
    return Reference(chosen, random, failures)


def _npz_label(inputs_from: Path | None) -> tuple[str, ...]:
    return (f"arrays from {inputs_from}",) if inputs_from else ()
