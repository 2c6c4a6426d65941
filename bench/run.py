"""`make bench`: graphmend's speed against libcst's own codemod runner on the corpus, in one run.

Each run is a fresh process on the same files with the same --jobs, from bench/corpus/ (bench/corpus.py
fetches the wheels first):

    check cold         graphmend check --no-cache                  every default-on rule
    check cold no GM6xx  graphmend check --no-cache --ignore GM6   without the documented-limits family
    check cold GM101   graphmend check --no-cache --select GM101   one rule, like the baseline
    check fill cache   graphmend check, cache emptied first        cold, and writes .graphmend_cache/
    check warm         graphmend check again                       every file from the cache
    fix --diff cold    graphmend fix --diff --no-cache
    baseline           python -m libcst.tool codemod gm101_codemod.NumpyConstructorCommand
                       --no-format --unified-diff   (bench/gm101_codemod.py: GM101 as a libcst command)
    ruff               ruff check --no-cache --isolated --select NPY,F401   (the linter's speed, issue 18)

then `graphmend verify` of the bundled examples (bench/verify_examples.py) against their bare
compile-and-run time (bench/bare_compile.py: one process per Cell, one compile and call per config).

Wall time is time.perf_counter around the process. CPU time and peak memory come from wait4 and from
sampling /proc every 50 ms (graphmend's workers are forked by a forkserver, which wait4 does not see):
peak memory is given twice, the largest resident set of one process of the run, and the largest sum of
resident sets over all its processes at once; the 500 MB target is held to the sum (which counts pages
that processes share once per process, so it overstates).
Results go to bench/results.json (a --subset run writes bench/corpus/results-subset-N.json instead, so
the committed full-corpus figures stay).

    .venv/bin/python bench/run.py               # the whole corpus: about an hour on 2 cores, mostly baseline
    .venv/bin/python bench/run.py --subset 300  # 300 files spread evenly over the corpus
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from importlib.metadata import version
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))

import corpus  # noqa: E402
from verify_examples import EXAMPLES, verify_examples  # noqa: E402

from graphmend import config as configuration  # noqa: E402
from graphmend import fix_source  # noqa: E402
from graphmend.files import select_files  # noqa: E402
from graphmend.verify import specs  # noqa: E402

GRAPHMEND = str(Path(sys.executable).parent / "graphmend")
BASELINE = "gm101_codemod.NumpyConstructorCommand"
OUT = corpus.ROOT / "out"  # what each run printed, for a look after the fact
PAGE = os.sysconf("SC_PAGE_SIZE")
TICKS = os.sysconf("SC_CLK_TCK")
MB = 1e6

# (what, run, limit): check cold and warm against the baseline's wall time (issue 18's goal for cold: 0.15×)
RATIO_TARGETS = (("check cold, all rules", "check cold", 0.15), ("check warm", "check warm", 0.05))
# (what, run, against, limit): issue 18's goals against ruff's wall time, and fix --diff against check cold
RUFF_TARGETS = (
    ("check cold vs ruff", "check cold", "ruff", 30.0),
    ("check warm vs ruff", "check warm", "ruff", 5.0),
    ("fix --diff cold vs check cold", "fix --diff cold", "check cold", 1.5),
    # issue 13: MindSpore's documented limits (GM601-GM613) may cost a cold check at most 15 %
    ("check cold vs check cold without GM6xx", "check cold", "check cold no GM6xx", 1.15),
)
RUFF = str(Path(sys.executable).parent / "ruff")
MEMORY_TARGET_MB = 500
VERIFY_TARGET = 1.5  # verify of the bundled examples, against the sum of their bare compile-and-run times


@dataclass
class Run:
    name: str
    command: list[str]
    exit_code: int
    wall_s: float
    cpu_s: float
    peak_process_mb: float  # the largest single process
    peak_total_mb: float  # every process of the run at once
    load: tuple[float, float]  # 1-minute load average before and after
    files_per_s: float = 0.0
    vs_baseline: float | None = None
    vs_ruff: float | None = None
    note: str = ""


@dataclass
class CellTiming:
    cell: str
    verify_wall_s: float
    verify_import_s: list[float]  # one `import mindspore` per worker
    verify_compile_s: float  # first calls of every check, both versions
    checks: int  # check runs per version (a PyNative reference comes on top)
    bare_wall_s: float
    bare_import_s: float
    bare_checks_s: dict[str, float] = field(default_factory=dict)


def main() -> None:
    args = _arguments()
    src = corpus.fetch()
    target = _subset(src, args.subset) if args.subset else src
    files = corpus.python_files(target)
    seen = select_files([target], configuration.load([target])).files
    if len(seen) != len(files):
        sys.exit(f"error: graphmend sees {len(seen)} of the {len(files)} files under {target}")
    OUT.mkdir(exist_ok=True)
    print(f"{len(files)} files under {target.relative_to(REPO)}, --jobs {args.jobs}, load {_load():.2f}")
    runs = _corpus_runs(target, len(files), args.jobs)
    cells = _verify_runs()
    results = _results(args, files, runs, cells)
    _print(results)
    default = corpus.ROOT / f"results-subset-{args.subset}.json" if args.subset else HERE / "results.json"
    output = args.output or default
    output.write_text(json.dumps(results, indent=2) + "\n")
    print(f"\nwritten to {output}")


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--subset", type=int, metavar="N", help="N files spread over the corpus (a quick run)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes (default: cores)")
    parser.add_argument("--output", type=Path, help="where the results go (default: bench/results.json)")
    return parser.parse_args()


def _subset(src: Path, count: int) -> Path:
    """`count` files at even steps through the sorted corpus, copied with their paths."""
    files = corpus.python_files(src)
    picked = [files[i * len(files) // count] for i in range(min(count, len(files)))]
    target = corpus.ROOT / f"subset-{count}"
    shutil.rmtree(target, ignore_errors=True)
    for path in picked:
        copy = target / path.relative_to(src)
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, copy)
    return target


# -- the corpus runs ------------------------------------------------------------------------------


def _corpus_runs(target: Path, files: int, jobs: int) -> list[Run]:
    graphmend = {
        "check cold": ["check", "--no-cache"],
        "check cold no GM6xx": ["check", "--no-cache", "--ignore", "GM6"],
        "check cold GM101": ["check", "--no-cache", "--select", "GM101"],
        "check fill cache": ["check"],
        "check warm": ["check"],
        "fix --diff cold": ["fix", "--diff", "--no-cache"],
    }
    runs = []
    # An installed graphmend has its bytecode compiled (pip does it); a sandbox that sets
    # PYTHONDONTWRITEBYTECODE would make every run compile graphmend's ~80 modules again (~0.17 s of a
    # warm run), which no user's run does.
    installed = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    for name, words in graphmend.items():
        if name == "check fill cache":
            shutil.rmtree(corpus.ROOT / ".graphmend_cache", ignore_errors=True)
            source = _graphmend_source()
        command = [GRAPHMEND, *words, "--jobs", str(jobs), "--quiet", str(target)]
        runs.append(_measure(name, command, corpus.ROOT, installed))
        if name == "check warm" and _graphmend_source() != source:
            # the cache is keyed by graphmend's own code: an edit in between makes the warm run cold
            runs[-1].note += "; NOT WARM: graphmend's code changed during the run (run from a clean checkout)"
    baseline = [sys.executable, "-m", "libcst.tool", "codemod", BASELINE, "--no-format", "--unified-diff",
                "--jobs", str(jobs), "--hide-progress", "--include-generated", str(target)]  # fmt: skip
    env = os.environ | {"PYTHONPATH": str(REPO)}  # bench/.libcst.codemod.yaml names the command's package
    runs.append(_measure("baseline", baseline, HERE, env))
    base = runs[-1].wall_s
    ruff = [RUFF, "check", "--no-cache", "--isolated", "--select", "NPY,F401", "--exit-zero", str(target)]
    runs.append(_measure("ruff", ruff, corpus.ROOT))
    ruff_s = runs[-1].wall_s
    for run in runs:
        run.files_per_s = files / run.wall_s
        run.vs_baseline = run.wall_s / base
        run.vs_ruff = run.wall_s / ruff_s
    return runs


def _graphmend_source() -> str:
    digest = hashlib.sha256()
    for path in sorted([*(REPO / "codemods").rglob("*.py"), REPO / "cli.py"]):
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _measure(name: str, command: list[str], cwd: Path, env: dict | None = None) -> Run:
    print(f"  {name} …", end="", flush=True)
    stem = OUT / name.replace(" ", "-").replace("--", "")
    before = _load()
    with open(f"{stem}.out", "wb") as out, open(f"{stem}.err", "wb") as err:
        started = time.perf_counter()
        process = subprocess.Popen(command, cwd=cwd, env=env, stdout=out, stderr=err)
        sampler = _TreeSampler(process.pid)
        _, status, usage = os.wait4(process.pid, 0)  # its usage covers the workers it reaped
        wall = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
    sampler.stop()
    cpu = max(usage.ru_utime + usage.ru_stime, sampler.cpu_s)
    largest = max(usage.ru_maxrss * 1024, *sampler.process_peak.values(), 0)
    note = _note(name, Path(f"{stem}.out"), Path(f"{stem}.err"))
    run = Run(name, command, process.returncode, wall, cpu, largest / MB, sampler.peak / MB, (before, _load()),
              note=note)  # fmt: skip
    print(f" {wall:.1f} s (exit {run.exit_code}{', ' + run.note if run.note else ''})")
    return run


_FINDING = re.compile(rb":\d+:\d+: GM\d{3} ")  # path:line:column: CODE — one per finding


def _note(name: str, out: Path, err: Path) -> str:
    """What the run says about its work: diffs, findings, failures."""
    text = err.read_text(errors="replace")
    if "Traceback" in text:
        return f"a traceback in {err}"
    lines = out.read_bytes().splitlines()
    changed = f"{sum(line.startswith(b'+++ ') for line in lines)} files changed"
    if name == "ruff":
        return f"{sum(bool(re.search(rb'(NPY|F401)', line)) for line in lines)} findings lines"
    if name == "baseline":
        failed = [line[3:] for line in text.splitlines() if line.startswith(" - Failed to codemod")]
        return "; ".join([changed, *failed])
    if "diff" in name:
        return changed
    findings = sum(bool(_FINDING.search(line)) for line in lines)
    return f"{findings} findings, {len(text.splitlines())} file errors"


class _TreeSampler:
    """A process and its descendants every 50 ms: their largest total resident memory, and per process the
    largest resident set and CPU time seen (wait4 misses workers it does not reap, e.g. a forkserver's)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.peak = 0
        self.process_peak: dict[int, int] = {}
        self.cpu_ticks: dict[int, int] = {}
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._done.set()
        self._thread.join()

    @property
    def cpu_s(self) -> float:
        return sum(self.cpu_ticks.values()) / TICKS

    def _sample(self) -> None:
        while not self._done.wait(0.05):
            total = 0
            for pid in _tree(self.pid):
                rss = _rss(pid)
                total += rss
                self.process_peak[pid] = max(self.process_peak.get(pid, 0), rss)
                self.cpu_ticks[pid] = max(self.cpu_ticks.get(pid, 0), _cpu_ticks(pid))
            self.peak = max(self.peak, total)


def _tree(pid: int) -> list[int]:
    pids, todo = [], [pid]
    while todo:
        current = todo.pop()
        pids.append(current)
        try:
            for task in os.listdir(f"/proc/{current}/task"):
                todo += [int(c) for c in Path(f"/proc/{current}/task/{task}/children").read_text().split()]
        except OSError:  # gone meanwhile
            pass
    return pids


def _cpu_ticks(pid: int) -> int:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
        return int(fields[11]) + int(fields[12])  # utime, stime
    except (OSError, IndexError, ValueError):
        return 0


def _rss(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE
    except (OSError, IndexError, ValueError):
        return 0


def _load() -> float:
    return os.getloadavg()[0]


# -- verify against bare compiles -----------------------------------------------------------------


def _verify_runs() -> list[CellTiming]:
    print("  verify of the bundled examples …", end="", flush=True)
    cwd = os.getcwd()
    try:
        reports = dict(verify_examples())
    finally:
        os.chdir(cwd)
    print(" done; bare compile-and-run of each Cell …", end="", flush=True)
    cells = []
    for path, cell, inputs in EXAMPLES:
        t = reports[cell].timings
        bare = _bare(REPO / path, cell, inputs)
        checks = len(reports[cell].checks)
        cells.append(CellTiming(cell, t.wall_s, list(t.import_s), t.compile_s, checks, *bare))
    print(" done")
    return cells


def _bare(path: Path, cell: str, inputs: list[str]) -> tuple[float, float, dict[str, float]]:
    """The fixed Cell compiled and run once per check config in one fresh process, without graphmend."""
    parsed = [specs.to_json(s) for s in specs.parse_specs(inputs)]
    with tempfile.TemporaryDirectory(prefix="graphmend-bare-") as tmp:
        module = Path(tmp) / path.name  # MindSpore's rank_0/ and the exported MindIR land here too
        module.write_text(fix_source(path.read_text(encoding="utf-8"), path=str(path)).output, encoding="utf-8")
        command = [sys.executable, str(HERE / "bare_compile.py"), str(module), cell, json.dumps(parsed)]
        started = time.perf_counter()
        done = subprocess.run(command, cwd=tmp, capture_output=True, text=True)
        wall = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"error: bare compile of {path.name}:{cell} failed:\n{done.stderr[-3000:]}")
    reply = json.loads(done.stdout.splitlines()[-1])
    return wall, reply["import_s"], reply["checks"]


# -- results --------------------------------------------------------------------------------------


def _results(args: argparse.Namespace, files: list[Path], runs: list[Run], cells: list[CellTiming]) -> dict:
    by_name = {run.name: run for run in runs}
    verify_wall = sum(c.verify_wall_s for c in cells)
    bare_wall = sum(c.bare_wall_s for c in cells)
    compile_s = sum(c.verify_compile_s for c in cells)
    import_s = sum(sum(c.verify_import_s) for c in cells)
    workers = max(len(c.verify_import_s) for c in cells)
    targets = [_target(what, by_name[run].vs_baseline, limit, "×") for what, run, limit in RATIO_TARGETS]
    targets += [_target(what, by_name[run].wall_s / by_name[against].wall_s, limit, "×")
                for what, run, against, limit in RUFF_TARGETS]  # fmt: skip
    peak = max(run.peak_total_mb for run in runs if run.name not in ("baseline", "ruff"))
    targets.append(_target("peak memory of a graphmend run, all processes", peak, MEMORY_TARGET_MB, " MB"))
    targets.append(_target("verify of the bundled examples vs bare compile-and-run", verify_wall / bare_wall,
                           VERIFY_TARGET, "×"))  # fmt: skip
    return {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "commit": _git("rev-parse", "HEAD"),
        "uncommitted": _git("status", "--porcelain", "--", "codemods", "cli.py").splitlines(),
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "libcst": version("libcst"),
            "mindspore": version("mindspore"),
        },  # fmt: skip
        "corpus": {name: v for name, (v, _) in corpus.PACKAGES.items()},
        "subset": args.subset,
        "files": len(files),
        "bytes": sum(f.stat().st_size for f in files),
        "jobs": args.jobs,
        "runs": [asdict(run) for run in runs],
        "verify": {
            "cells": [asdict(c) for c in cells],
            "verify_wall_s": verify_wall,
            "bare_wall_s": bare_wall,
            "ratio": verify_wall / bare_wall,
            "imports_per_cell": workers,
            "compile_share_per_worker": compile_s / (workers * verify_wall),
            "import_share_per_worker": import_s / (workers * verify_wall),
        },
        "targets": targets,
    }


def _target(what: str, value: float, limit: float, unit: str) -> dict:
    return {
        "what": what,
        "value": round(value, 3),
        "limit": limit,
        "unit": unit.strip(),
        "met": value <= limit,
    }


def _git(*words: str) -> str:
    return subprocess.run(["git", *words], cwd=REPO, capture_output=True, text=True).stdout.strip()


def _print(results: dict) -> None:
    print(f"\n{results['files']} files ({results['bytes'] / MB:.1f} MB), --jobs {results['jobs']}, "
          f"{results['machine']['cpus']} CPUs")  # fmt: skip
    print(f"{'run':<18} {'wall s':>8} {'files/s':>8} {'cpu s':>8} {'peak MB':>8} {'all MB':>7} {'×base':>6} "
          f"{'×ruff':>7}  {'load':>11}  exit")  # fmt: skip
    for run in results["runs"]:
        load = f"{run['load'][0]:.1f}→{run['load'][1]:.1f}"
        print(f"{run['name']:<18} {run['wall_s']:>8.1f} {run['files_per_s']:>8.1f} {run['cpu_s']:>8.1f} "
              f"{run['peak_process_mb']:>8.0f} {run['peak_total_mb']:>7.0f} {run['vs_baseline']:>6.3f} "
              f"{run.get('vs_ruff') or 0:>7.1f}  "
              f"{load:>11}  {run['exit_code']}  {run['note']}")  # fmt: skip
    v = results["verify"]
    header = f"{'verify s':>9} {'imports':>8} {'compile s':>10} {'bare s':>7} {'bare import':>12}  ×bare"
    print(f"\n{'cell':<16} {header}")
    for c in v["cells"]:
        print(f"{c['cell']:<16} {c['verify_wall_s']:>9.1f} {len(c['verify_import_s']):>8} "
              f"{c['verify_compile_s']:>10.1f} {c['bare_wall_s']:>7.1f} {c['bare_import_s']:>12.1f}  "
              f"{c['verify_wall_s'] / c['bare_wall_s']:.2f}")  # fmt: skip
    print(f"{'total':<16} {v['verify_wall_s']:>9.1f} {'':>8} {'':>10} {v['bare_wall_s']:>7.1f} {'':>12}  "
          f"{v['ratio']:.2f}")  # fmt: skip
    print(f"share of verify's wall time per worker: compile {v['compile_share_per_worker']:.0%}, "
          f"import mindspore {v['import_share_per_worker']:.0%} (once per worker)")  # fmt: skip
    print()
    for t in results["targets"]:
        mark = "met   " if t["met"] else "MISSED"
        print(f"{mark} {t['what']}: {t['value']:g}{t['unit']} (target ≤ {t['limit']:g}{t['unit']})")


if __name__ == "__main__":
    main()
