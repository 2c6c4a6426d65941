"""The floor `verify --recorded` is held to: recorded Cells built and compiled by hand, without graphmend's
verifier around them.

One process imports MindSpore, then for each Cell and each check verify ran on it (graph, strict,
dynamic, export) builds the Cell from its recorded constructor arguments and Parameters, compiles it in
GRAPH_MODE and calls it once with the recorded inputs: no PyNative reference, no second version, no
second call, no comparison. The recorded values are read with the verify worker's own decoder, so both
sides build the same Cells from the same files.

    python bench/bare_recorded.py ROOT JOBS.json

ROOT is put first on sys.path (the tree the Cells import from); JOBS.json is a list of
{"module", "cell", "recorded", "checks"} (recorded: a Request's `recorded`). Prints one JSON line: the
seconds of `import mindspore` and of each Cell.
"""

import importlib
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "codemods" / "verify"))
_START = time.perf_counter()
import mindspore as ms  # noqa: E402
import numpy as np  # noqa: E402
import worker  # noqa: E402  (the verifier's decoder: imports MindSpore and nothing of graphmend)
from mindspore import nn  # noqa: E402

IMPORT_S = time.perf_counter() - _START


def main() -> None:
    root, jobs = sys.argv[1], json.loads(Path(sys.argv[2]).read_text())
    sys.path.insert(0, root)
    seconds = []
    for job in jobs:
        cls = getattr(importlib.import_module(job["module"]), job["cell"])
        started = time.perf_counter()
        for check in job["checks"]:
            _compile_and_run(cls, job["recorded"], check)
        seconds.append(time.perf_counter() - started)
    print(json.dumps({"import_s": IMPORT_S, "cells": seconds}))


def _compile_and_run(cls, recorded: dict, check: str) -> None:
    ms.set_context(mode=ms.GRAPH_MODE, jit_syntax_level=ms.STRICT if check in ("strict", "export") else ms.LAX)
    sample, folder = recorded["sample"], recorded["dir"]
    rng = np.random.default_rng(0)
    args, kwargs = worker.decode_call(sample["init"], folder, rng)
    net = cls(*args, **kwargs)
    if sample["params"]:
        worker.load_recorded(net, sample["params"], folder)
    net.set_train(sample["training"])
    inputs = worker.decode_call(sample, folder, rng)[0]
    if check == "dynamic":
        other = worker.decode_call(recorded["partner"], folder, rng)[0]
        net.set_inputs(*worker._recorded_placeholders(inputs, other))
    if check == "export":
        ms.export(net, *inputs, file_name=cls.__name__, file_format="MINDIR")
        net = nn.GraphCell(ms.load(f"{cls.__name__}.mindir"))
        inputs = [x for x in inputs if isinstance(x, ms.Tensor)]  # export baked the Python scalars in
    out = net(*inputs)
    for value in out if isinstance(out, (tuple, list)) else (out,):
        if isinstance(value, ms.Tensor):
            value.asnumpy()  # wait for the device


if __name__ == "__main__":
    main()
