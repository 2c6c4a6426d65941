"""`make corpus-check`: graphmend's guarantees, held over the sources of six public MindSpore packages.

On the corpus of `make bench` (bench/corpus.py fetches it), through the real CLI:

1. `graphmend check --target export` with the default rules, then with `--select ALL`: the findings per
   rule and per target (what `--target T` would report of them); no crash (an "internal error" or a
   traceback).
2. `graphmend fix` on a copy, with the default rules and safe fixes, then with every rule and
   `--unsafe-fixes`: no crash; every changed file still compiles; only files with a fixable finding
   change (the others stay byte-identical); a second `fix` changes nothing.
3. The pre-filter and the first pass (graphmend.firstpass): every file they keep from libcst is checked
   again without them (`graphmend.engine.check` directly), with every rule or, for a file the first pass
   skips only for the default rules, with those: none may have a finding.

Every graphmend run works from one temporary directory, so they share a cache of their own, empty at
the start: each (file content, rules, mode) is computed once, and a second `fix` recomputes only the
files the first one changed (the others have the same content, and their result is the same).

Prints the counts; every violation is listed with its file and the rules whose fixes touched it, and
the exit code is 1 if there is one.

    .venv/bin/python bench/corpus_check.py [--jobs N] [--mode default|all]

`--mode` runs the checks and fixes of one mode only (the pre-filter check always runs): the whole run
takes one to three hours on two cores, and a mode can be re-measured alone after a change to it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import corpus  # noqa: E402

from graphmend import RULES, engine, firstpass, fix_source  # noqa: E402
from graphmend.files import cpython_tree, syntax_error  # noqa: E402
from graphmend.rules import select_rules  # noqa: E402
from graphmend.runner import may_have_graph_code  # noqa: E402
from graphmend.targets import Target  # noqa: E402

GRAPHMEND = str(Path(sys.executable).parent / "graphmend")
# what a file of the corpus may legitimately get instead of a check: its own syntax, its encoding, its size
INPUT_ERRORS = ("cannot parse", "cannot decode", "not checked:")


@dataclass(frozen=True)
class Mode:
    key: str  # for --mode
    label: str
    flags: tuple[str, ...]
    select: tuple[str, ...] | None  # for the library, as the flags say
    unsafe: bool


MODES = (
    Mode("default", "default rules, safe fixes", (), None, False),
    Mode("all", "every rule, unsafe fixes too", ("--select", "ALL", "--unsafe-fixes"), ("ALL",), True),
)


@dataclass
class Checked:
    findings: list[dict]
    input_errors: list[str]
    crashes: list[str]

    def fixable(self, unsafe: bool) -> set[str]:
        ok = ("safe", "unsafe") if unsafe else ("safe",)
        return {f["filename"] for f in self.findings if f["fix"] and f["fix"]["applicability"] in ok}


@dataclass
class Violations:
    items: list[tuple[str, str, str]] = field(default_factory=list)  # (kind, file, detail)

    def add(self, kind: str, path: str, detail: str = "") -> None:
        self.items.append((kind, path, detail))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes (default: cores)")
    parser.add_argument("--mode", choices=("default", "all"), help="only this mode (default: both)")
    args = parser.parse_args()
    modes = [m for m in MODES if args.mode is None or m.key == args.mode]
    src = corpus.fetch()
    files = corpus.python_files(src)
    print(f"corpus: {len(files)} .py files under {src}, {len(corpus.PACKAGES)} packages, --jobs {args.jobs}")
    violations = Violations()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="graphmend-corpus-check-") as work:
        gm = _Graphmend(Path(work), args.jobs, violations)
        checks = {mode.label: _check(src, mode, gm) for mode in modes}
        _print_rules(checks)
        for mode in modes:
            _fix_twice(src, mode, checks[mode.label], gm)
    _prefilter(files, args.jobs, violations)
    print(f"\n{time.perf_counter() - started:.0f} s")
    if violations.items:
        print(f"\n{len(violations.items)} VIOLATION(S):")
        for kind, path, detail in violations.items:
            print(f"  {kind}: {path}" + (f"\n    {detail}" if detail else ""))
        sys.exit(1)
    print("no violation")


# -- 1. check -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Graphmend:
    """The CLI, run from `work` (its cache goes there), on `--jobs` workers."""

    work: Path
    jobs: int
    violations: Violations

    def __call__(self, *words: str) -> subprocess.CompletedProcess:
        started = time.perf_counter()
        command = [GRAPHMEND, *words[:1], "--jobs", str(self.jobs), *words[1:]]
        done = subprocess.run(command, cwd=self.work, capture_output=True, text=True)
        print(f"  ({' '.join(words[:-1])}: {time.perf_counter() - started:.0f} s)")
        return done


def _check(src: Path, mode: Mode, gm: _Graphmend) -> Checked:
    select = [w for w in mode.flags if w != "--unsafe-fixes"]
    done = gm("check", "--format", "json", "--target", "export", *select, str(src))  # every finding
    checked = Checked(json.loads(done.stdout or "[]"), *_errors(done.stderr))
    for crash in checked.crashes:
        gm.violations.add(f"crash in check ({mode.label})", crash)
    files = len({f["filename"] for f in checked.findings})
    python_ok = [line for line in checked.input_errors if _compiles(line.split(":", 1)[0])]
    print(f"\ncheck, {mode.label.split(',')[0]}: exit {done.returncode}, {len(checked.findings)} findings in {files} "
          f"files, {len(checked.crashes)} crashes; {len(checked.input_errors)} files not read "
          f"({len(python_ok)} of them compile with CPython)")  # fmt: skip
    for line in checked.input_errors:
        print(f"  not read: {line}")
    return checked


def _compiles(path: str) -> bool:
    return syntax_error(path, Path(path).read_bytes()) is None


def _errors(stderr: str) -> tuple[list[str], list[str]]:
    """(input errors, crashes) from what the CLI printed: `path:line: error: message` lines."""
    inputs, crashes = [], []
    if "Traceback (most recent call last)" in stderr:
        crashes.append("a traceback:\n" + stderr[-3000:])
    for line in stderr.splitlines():
        if ": error: " not in line:
            continue
        message = line.split(": error: ", 1)[1]
        if message.startswith(INPUT_ERRORS):
            inputs.append(line)
        else:  # an internal error, or a fix refused because its result would not parse
            crashes.append(line)
    return inputs, crashes


def _print_rules(checks: dict[str, Checked]) -> None:
    # a mode not run (--mode) counts as no finding; its column is left out of the totals' meaning
    counts = {m.label: Counter(f["code"] for f in checks[m.label].findings) if m.label in checks else Counter()
              for m in MODES}  # fmt: skip
    fixable = {label: Counter(f["code"] for f in checked.findings if f["fix"]) for label, checked in checks.items()}
    fixable.setdefault(MODES[1].label, Counter())
    labels = [m.label for m in MODES]
    if len(checks) < len(MODES):
        print(f"\n(only {', '.join(checks)}: the other columns are 0, not measured)")
    print(f"\n{'rule':<7} {'name':<22} {'default':>8} {'ALL':>7} {'with a fix':>11}")
    for code, rule in RULES.items():
        default, every = counts[labels[0]][code], counts[labels[1]][code]
        print(f"{code:<7} {rule.NAME:<22} {default if rule.DEFAULT else '-':>8} {every:>7} "
              f"{fixable[labels[1]][code]:>11}")  # fmt: skip
    print(f"{'total':<30} {sum(counts[labels[0]].values()):>8} {sum(counts[labels[1]].values()):>7}")
    # what `--target T` would report: the findings of the rules whose BREAKS apply to T (one run of
    # `--target export` holds them all; a target only leaves rules out)
    print(f"\n{'target':<9} {'default rules':>14} {'ALL':>7}")
    for target in Target:
        shown = [sum(n for code, n in counts[label].items() if RULES[code].BREAKS.applies([target]))
                 for label in labels]  # fmt: skip
        print(f"{target.value:<9} {shown[0]:>14} {shown[1]:>7}")


# -- 2. fix, twice, on a copy --------------------------------------------------------------------


def _fix_twice(src: Path, mode: Mode, checked: Checked, gm: _Graphmend) -> None:
    with tempfile.TemporaryDirectory(prefix="graphmend-corpus-") as tmp:
        copy = Path(tmp) / "src"
        shutil.copytree(src, copy)
        files = corpus.python_files(copy)
        before = _digests(files)
        first = _fix(copy, mode, gm)
        after = _digests(files)
        changed = [f for f in files if before[f] != after[f]]
        fixable = {str(copy / Path(name).relative_to(src)) for name in checked.fixable(mode.unsafe)}
        broken = [f for f in changed if syntax_error(str(f), f.read_bytes()) is not None]
        for path in broken:
            gm.violations.add(f"does not compile after fix ({mode.label})", _shown(path, copy),
                           _rules_applied(src / path.relative_to(copy), mode))  # fmt: skip
        unexpected = [f for f in changed if str(f) not in fixable]
        for path in unexpected:
            gm.violations.add(f"changed without a fixable finding ({mode.label})", _shown(path, copy))
        second = _fix(copy, mode, gm)
        again = _digests(files)
        unstable = [f for f in files if again[f] != after[f]]
        for path in unstable:
            gm.violations.add(f"a second fix changes it ({mode.label})", _shown(path, copy),
                           _second_pass(src / path.relative_to(copy), mode))  # fmt: skip
    print(f"\nfix, {mode.label}: {first}; {len(changed)} files changed ({len(fixable)} had a fixable finding), "
          f"{len(files) - len(changed)} byte-identical; {len(broken)} do not compile; "
          f"{len(unexpected)} changed without a fixable finding; second fix: {second}, "
          f"{len(unstable)} files changed")  # fmt: skip


def _fix(tree: Path, mode: Mode, gm: _Graphmend) -> str:
    done = gm("fix", "--target", "export", *mode.flags, str(tree))
    _, crashes = _errors(done.stderr)
    for crash in crashes:
        gm.violations.add(f"crash or refused fix in fix ({mode.label})", crash)
    summary = [line for line in done.stderr.splitlines() if line.startswith("Fixed ")]
    return f"exit {done.returncode}, " + (summary[-1].rstrip(".") if summary else "no summary")


def _digests(files: list[Path]) -> dict[Path, str]:
    return {f: hashlib.sha256(f.read_bytes()).hexdigest() for f in files}


def _shown(path: Path, copy: Path) -> str:
    return str(path.relative_to(copy))


def _rules_applied(original: Path, mode: Mode) -> str:
    result = fix_source(original.read_bytes(), path=str(original), unsafe=mode.unsafe, select=mode.select)
    return "fixes applied: " + ", ".join(f"{f.code} line {f.line}" for f in result.applied)


def _second_pass(original: Path, mode: Mode) -> str:
    once = fix_source(original.read_bytes(), path=str(original), unsafe=mode.unsafe, select=mode.select)
    twice = fix_source(once.output, path=str(original), unsafe=mode.unsafe, select=mode.select)
    first = ", ".join(sorted({f.code for f in once.applied}))
    second = "; ".join(f"{f.code} line {f.line}: {f.original!r} → {f.replacement!r}" for f in twice.applied)
    return f"first fix: {first}; the second applies {second or 'nothing (the CLI and the library disagree)'}"


# -- 3. the pre-filter and the first pass ---------------------------------------------------------


def _prefilter(files: list[Path], jobs: int, violations: Violations) -> None:
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        verdicts = list(pool.map(_skipped_by, files, chunksize=8))
        todo = [(path, skip) for path, skip in zip(files, verdicts, strict=True) if skip]
        outcomes = list(pool.map(_check_skipped, todo, chunksize=8))
    unreadable = 0
    for (path, skip), outcome in zip(todo, outcomes, strict=True):
        if isinstance(outcome, str):
            unreadable += 1
        elif outcome:
            violations.add(f"skipped by the {skip}, yet has findings", str(path), ", ".join(outcome))
    found = sum(bool(o) and not isinstance(o, str) for o in outcomes)
    count = Counter(verdicts)
    print(
        f"\npre-filter: {count['pre-filter']} of {len(files)} files skipped; first pass: {count['first pass']} "
        f"more with every rule, {count['first pass, default rules']} more with the default rules; each checked "
        f"without them with those rules: {found} with findings, {unreadable} not parsed (their own syntax)"
    )


def _skipped_by(path: Path) -> str:
    """What keeps `path` from libcst: "pre-filter" (text), "first pass" (its AST, every rule), "first pass,
    default rules", or "" (nothing: it is analysed)."""
    data = path.read_bytes()
    if not may_have_graph_code(data):
        return "pre-filter"
    tree, error = cpython_tree(str(path), data)
    if error is not None:
        return ""
    if not firstpass.may_have_findings(tree, data, select_rules(["ALL"])):
        return "first pass"
    return "" if firstpass.may_have_findings(tree, data, select_rules()) else "first pass, default rules"


def _check_skipped(item: tuple[Path, str]) -> list[str] | str:
    """The findings of the rules `path` was skipped for (every rule, or the default ones), with the full
    analysis, or why it was not parsed."""
    path, skip = item
    data = path.read_bytes()
    error = syntax_error(str(path), data)
    if error is not None:
        return error.message
    rules = select_rules(None if skip == "first pass, default rules" else ["ALL"])
    return [f"{f.code} line {f.line}" for f in engine.check(data, str(path), rules)]


if __name__ == "__main__":
    main()
