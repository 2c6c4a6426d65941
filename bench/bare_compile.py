"""The floor `graphmend verify` is held to: one example Cell compiled and run by hand, without graphmend.

One process imports MindSpore, then for each check config verify would run (graph, strict, dynamic,
export) builds the Cell, compiles it in GRAPH_MODE and calls it once: no PyNative reference, no second
version, no second call, no comparison. bench/run.py runs it in a fresh process per Cell, from a
temporary working directory (MindSpore writes rank_0/ there), and times the whole process.

    python bench/bare_compile.py MODULE_FILE CELL '[{"dtype": "float32", "dims": [[2, "B"], [4, null]]}]'

Prints one JSON line: the seconds of `import mindspore` and of each config (build, compile, one call).
It imports nothing from graphmend.
"""

import importlib
import json
import sys
import time

_START = time.perf_counter()
import mindspore as ms  # noqa: E402
import numpy as np  # noqa: E402
from mindspore import nn  # noqa: E402

IMPORT_S = time.perf_counter() - _START


def main() -> None:
    path, cell, specs = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
    cls = getattr(_load(path), cell)
    dynamic = any(name for spec in specs for _, name in spec["dims"])
    seconds = {}
    for check in ("graph", "strict", "dynamic", "export"):
        if check == "dynamic" and not dynamic:
            continue
        started = time.perf_counter()
        _compile_and_run(cls, specs, check)
        seconds[check] = time.perf_counter() - started
    print(json.dumps({"import_s": IMPORT_S, "checks": seconds}))


def _compile_and_run(cls, specs: list[dict], check: str) -> None:
    ms.set_context(mode=ms.GRAPH_MODE, jit_syntax_level=ms.STRICT if check in ("strict", "export") else ms.LAX)
    net = cls()
    net.set_train(False)
    inputs = [_tensor(spec) for spec in specs]
    if check == "dynamic":  # named dimensions free, as verify's dynamic check sets them
        net.set_inputs(*[_placeholder(spec) for spec in specs])
    if check == "export":
        ms.export(net, *inputs, file_name=f"{cls.__name__}", file_format="MINDIR")
        net = nn.GraphCell(ms.load(f"{cls.__name__}.mindir"))
    out = net(*inputs)
    for value in out if isinstance(out, (tuple, list)) else (out,):
        value.asnumpy()  # wait for the device


def _tensor(spec: dict):
    shape = tuple(size for size, _ in spec["dims"])
    return ms.Tensor(np.random.default_rng(0).standard_normal(shape).astype(spec["dtype"]))


def _placeholder(spec: dict):
    shape = [None if name else size for size, name in spec["dims"]]
    return ms.Tensor(shape=shape, dtype=getattr(ms, spec["dtype"]))


def _load(path: str):
    """Imported by its name: MindSpore's parser looks the module of `construct` up in sys.modules."""
    directory, _, name = path.rpartition("/")
    sys.path.insert(0, directory or ".")
    return importlib.import_module(name.removesuffix(".py"))


if __name__ == "__main__":
    main()
