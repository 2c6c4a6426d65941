"""Measure every row of bench/limits/cases.py on the installed MindSpore: `make limits`.

    python bench/limits/run.py                 # measure, write docs/limits.json, docs/limits.md, README table
    python bench/limits/run.py --render        # only regenerate docs/limits.md and the README table
    python bench/limits/run.py for_else walrus # measure some cases, print their results
    python bench/limits/run.py --merge walrus  # measure some cases into docs/limits.json, then render

The cases run in child processes (child.py; MindSpore is imported there only), `--jobs` at once, each
taking a share of the cases: one MindSpore import per process. A case that crashes or hangs its
process is recorded as such, and a fresh process takes the cases after it.
"""

from __future__ import annotations

import argparse
import json
import queue
import subprocess
import sys
import tempfile
import threading
from importlib import metadata
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(REPO))

import cases  # noqa: E402
import table  # noqa: E402

RESULTS = REPO / "docs" / "limits.json"
TIMEOUT = 180.0  # seconds one case may take (five modes) before its process is killed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="cases to measure and print (default: all, written)")
    parser.add_argument("--jobs", type=int, default=2, help="child processes at once")
    parser.add_argument("--render", action="store_true", help="regenerate the docs from docs/limits.json")
    parser.add_argument("--merge", action="store_true", help="write the named cases into docs/limits.json")
    args = parser.parse_args(argv)
    if not args.render:
        chosen = [c for _, c in cases.all_cases() if not args.names or c.name in args.names]
        results = measure(chosen, args.jobs)
        if args.names and not args.merge:
            print(json.dumps(results, indent=1))
            return 0
        if args.merge:
            results = {**json.loads(RESULTS.read_text(encoding="utf-8"))["results"], **results}
        data = {"mindspore": metadata.version("mindspore"), "results": results}
        RESULTS.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    table.write_all()
    return 0


def measure(chosen: list[cases.Case], jobs: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="graphmend-limits-") as work:
        for case in chosen:
            suffix = ".nofile" if case.no_file else ".py"
            (Path(work) / (case.name + suffix)).write_text(cases.HEADER + "\n\n" + case.source, encoding="utf-8")
        shares = [chosen[i::jobs] for i in range(max(1, jobs))]
        results: dict = {}
        threads = [threading.Thread(target=_run_share, args=(work, share, results)) for share in shares if share]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    return dict(sorted(results.items()))


def _run_share(work: str, share: list[cases.Case], results: dict) -> None:
    names = [c.name for c in share]
    while names:
        sub = Path(work) / f"run-{names[0]}"
        sub.mkdir()
        for name in names:  # each process its own cwd (exported files), the modules shared
            for suffix in (".py", ".nofile"):
                if (Path(work) / (name + suffix)).exists():
                    (sub / (name + suffix)).symlink_to(Path(work) / (name + suffix))
        proc = subprocess.Popen(
            [sys.executable, str(HERE / "child.py"), str(sub), *names],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        lines: queue.Queue = queue.Queue()
        threading.Thread(target=_pump, args=(proc, lines), daemon=True).start()
        while names:
            try:
                line = lines.get(timeout=TIMEOUT)
            except queue.Empty:
                proc.kill()
                results[names.pop(0)] = {"pynative": {"ok": False, "error": f"hung: no result in {TIMEOUT:.0f} s"}}
                break
            if line is None:
                proc.wait()
                results[names.pop(0)] = {"pynative": {"ok": False, "error": f"crashed: exit {proc.returncode}"}}
                break
            got = json.loads(line)
            results[got.pop("id")] = got
            names.remove(next(n for n in names if n in results))
        proc.kill()
        proc.wait()


def _pump(proc: subprocess.Popen, lines: queue.Queue) -> None:
    """The child's result lines into `lines`, then None when it ends."""
    for line in proc.stdout:  # type: ignore[union-attr]
        lines.put(line)
    lines.put(None)


if __name__ == "__main__":
    sys.exit(main())
