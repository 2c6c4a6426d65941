"""Time `graphmend verify` on the bundled example Cells: wall time, and how much is import and compile.

Each example is rewritten in memory by graphmend's own fix (as `graphmend fix --verify` will do)
and verified with every check that applies. Two workers (one per version) run side by side, so
the import and compile sums are worker time and may add up to more than the wall time.

    .venv/bin/python bench/verify_examples.py
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from graphmend import fix_source  # noqa: E402
from graphmend.verify import Report, verify  # noqa: E402

EXAMPLES = [
    ("examples/qformer_mask.py", "ImageTextHead", ["float32[B,5,16]"]),
    ("examples/batch_renorm.py", "GrowingClip", ["float32[B,3,4,4]"]),
    ("examples/export_pitfalls.py", "SmallClassifier", ["float32[B,3,8,8]"]),
    ("examples/export_pitfalls.py", "MultiLevelLoss", ["float32[B,4]", "float32[B,4]"]),
]


def verify_examples() -> list[tuple[str, Report]]:
    """Each example Cell with its verify report (timings in `report.timings`)."""
    os.chdir(REPO)
    reports = []
    for path, cell, inputs in EXAMPLES:
        source = Path(path).read_text(encoding="utf-8")
        reports.append((cell, verify(Path(path), fix_source(source, path=path).output, cell, {}, inputs)))
    return reports


def main() -> None:
    started = time.perf_counter()
    reports = verify_examples()
    print(f"{'cell':<16} {'wall s':>7} {'import s':>9} {'compile s':>10} {'workers':>8}  after")
    totals = [0.0, 0.0, 0.0]
    for cell, report in reports:
        t = report.timings
        after = ", ".join(f"{v.check} {'ok' if v.passed else 'FAIL'}" for v in report.verdicts if v.version == "after")
        numbers = f"{t.wall_s:>7.1f} {sum(t.import_s):>9.1f} {t.compile_s:>10.1f} {t.workers:>8}"
        print(f"{cell:<16} {numbers}  {after}")
        totals = [totals[0] + t.wall_s, totals[1] + sum(t.import_s), totals[2] + t.compile_s]
    wall, imports, compiles = totals
    print(f"{'total':<16} {wall:>7.1f} {imports:>9.1f} {compiles:>10.1f}")
    print(f"script wall {time.perf_counter() - started:.1f} s on {os.cpu_count()} CPUs")
    # the two workers of a Cell run side by side: per worker, the share of the wall time is sum / 2 / wall
    share = f"import mindspore {imports / (2 * wall):.0%}, compile {compiles / (2 * wall):.0%}"
    print(f"share of the wall time, per worker: {share}")


if __name__ == "__main__":
    main()
