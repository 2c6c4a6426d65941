"""Time `graphmend record` and `verify --recorded` on mindcv 0.3.0 against their baselines, in one run.

1. record: one forward pass of three mindcv models with random weights (edgenext_xx_small,
   xcit_tiny_12_p16_224, coat_lite_tiny) on a random image, run bare and under `graphmend record`;
   the ratio is record's wall time over the bare script's.
2. verify: `graphmend verify --recorded` over a copy of the package (graphmend's default fix, made in
   memory; every touched Cell the recording reached is verified). Counted: touched Cells, reached,
   proven. Its time is the sum of the verify reports' wall times; the baseline is bench/bare_recorded.py
   building and compiling the same Cells with the same recorded values, once per check, in one process.

    .venv/bin/python bench/recorded_mindcv.py [-o bench/recorded.json] [--repeat 3]

Each run measures both sides of both ratios; the result is the run with the median verify ratio,
plus every run's figures and the median of each ratio.

The mindcv wheel comes from bench/corpus.py (pinned, sha256-checked); mindcv imports tqdm (the dev extra).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

import corpus  # noqa: E402

from graphmend.verify.recording import Recording  # noqa: E402

GRAPHMEND = str(Path(sys.executable).parent / "graphmend")
MODELS = ("edgenext_xx_small", "xcit_tiny_12_p16_224", "coat_lite_tiny")
FORWARD = """\
import sys
import numpy as np
import mindspore as ms
import mindcv

ms.set_seed(0)
image = ms.Tensor(np.random.default_rng(0).standard_normal((1, 3, 224, 224)).astype(np.float32))
for name in sys.argv[1:]:
    model = mindcv.create_model(name, pretrained=False)
    model.set_train(False)
    print(name, model(image).shape)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", type=Path, default=HERE / "recorded.json")
    parser.add_argument("--repeat", type=int, default=3, help="runs; the ratios are the medians of their pairs")
    args = parser.parse_args()
    runs = []
    for _ in range(args.repeat):
        with tempfile.TemporaryDirectory(prefix="graphmend-recorded-") as tmp:
            runs.append(measure(Path(tmp)))
    result = _median_run(runs)
    args.output.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


def measure(tmp: Path) -> dict:
    wheel = corpus.download("mindcv", *corpus.PACKAGES["mindcv"])
    orig = tmp / "orig"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(orig, [m for m in archive.namelist() if m.startswith("mindcv/")])
    (tmp / "forward.py").write_text(FORWARD)
    env = {**os.environ, "PYTHONPATH": str(orig)}
    forward = [sys.executable, "forward.py", *MODELS]

    bare_s = _timed(forward, tmp, env)
    recording = tmp / "rec"
    record_s = _timed([GRAPHMEND, "record", "-q", "-o", str(recording), "--tree", str(orig), "--", *forward], tmp, env)

    work = tmp / "work"
    shutil.copytree(orig, work)
    started = time.perf_counter()
    done = subprocess.run([GRAPHMEND, "verify", "--recorded", str(recording), "--format", "json", "mindcv"],
                          cwd=work, capture_output=True, text=True, check=False)  # fmt: skip
    command_s = time.perf_counter() - started
    documents = json.loads(done.stdout)
    proven = [d for d in documents if d["status"] == "proven"]
    verify_s = sum(d["timings"]["wall_s"] for d in documents if "timings" in d)

    loaded = Recording.load(recording)
    jobs = []
    for d in [d for d in documents if "timings" in d]:
        path, cell = d["cell"].split(" ")[0].rsplit(":", 1)
        module = path.removesuffix(".py").replace("/", ".")
        for _, request in loaded.requests(module, work / path, "", cell):
            jobs.append({"module": module, "cell": cell, "recorded": request.recorded, "checks": d["checks"]})
    (tmp / "jobs.json").write_text(json.dumps(jobs))
    started = time.perf_counter()
    bare = subprocess.run([sys.executable, str(HERE / "bare_recorded.py"), str(orig), str(tmp / "jobs.json")],
                          cwd=tmp, capture_output=True, text=True, check=False)  # fmt: skip
    bare_verify_s = time.perf_counter() - started
    if bare.returncode:
        raise SystemExit(f"bench/bare_recorded.py failed:\n{bare.stderr[-3000:]}")
    return {
        "package": "mindcv 0.3.0",
        "models": list(MODELS),
        "touched_cells": len(documents),
        "reached": sum(1 for d in documents if d["status"] != "not verified" or "not reached" not in d["why"]),
        "proven": len(proven),
        "failed": sum(1 for d in documents if d["status"] == "failed"),
        "not_verified": [d["cell"] for d in documents if d["status"] == "not verified"],
        "recorded_classes": len(loaded.cells),
        "record": {"bare_forward_s": bare_s, "record_s": record_s, "ratio": record_s / bare_s},
        "verify": {
            "verify_s": verify_s,
            "bare_compile_and_run_s": bare_verify_s,
            "bare_detail": json.loads(bare.stdout.strip().splitlines()[-1]),
            "ratio": verify_s / bare_verify_s,
            "verify_command_s": command_s,
        },
    }


def _median_run(runs: list[dict]) -> dict:
    """The run whose verify ratio is the median, with every run's pair of times beside it: on a shared
    2-core machine one run's ratio moved between 1.33 and 1.66 from one run to the next."""
    ordered = sorted(runs, key=lambda r: r["verify"]["ratio"])
    result = dict(ordered[len(ordered) // 2])
    record_ratios = sorted(r["record"]["ratio"] for r in runs)
    result["runs"] = [
        {"verify_s": r["verify"]["verify_s"], "bare_compile_and_run_s": r["verify"]["bare_compile_and_run_s"],
         "verify_ratio": r["verify"]["ratio"], "record_ratio": r["record"]["ratio"]}
        for r in runs
    ]  # fmt: skip
    result["median"] = {"verify_ratio": result["verify"]["ratio"], "record_ratio": record_ratios[len(runs) // 2]}
    return result


def _timed(command: list[str], cwd: Path, env: dict) -> float:
    started = time.perf_counter()
    subprocess.run(command, cwd=cwd, env=env, check=True, capture_output=True)
    return time.perf_counter() - started


if __name__ == "__main__":
    main()
