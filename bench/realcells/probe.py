"""Selection aid: build and call every Cell of cells.py once in PyNative, in one process.

Used to pick the set (a Cell whose module cannot be imported, or that cannot be built or called as
given, is dropped or its harness corrected); `make realcells` does not run it.

    .venv/bin/python bench/realcells/probe.py [KEY-SUBSTRING...]
"""

from __future__ import annotations

import importlib
import sys
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parents[1])]

import mindspore as ms  # noqa: E402
import numpy as np  # noqa: E402
from cells import CELLS  # noqa: E402

from graphmend.verify import specs  # noqa: E402
from graphmend.verify.worker import make_input  # noqa: E402

for cell in CELLS:
    if sys.argv[1:] and not any(a in cell.key for a in sys.argv[1:]):
        continue
    sys.path.insert(0, str(HERE / "src" / cell.package))
    stage = "import"
    try:
        module = importlib.import_module(cell.path[:-3].replace("/", "."))
        stage = "build"
        ms.set_seed(0)
        net = getattr(module, cell.name)(**cell.init)
        net.set_train(cell.train)
        stage = "call"
        rng = np.random.default_rng(0)
        out = net(*[make_input(specs.to_json(s), 0, rng) for s in specs.parse_specs(list(cell.inputs))])
        shapes = [getattr(o, "shape", o) for o in (out if isinstance(out, (tuple, list)) else [out])]
        print(f"OK   {cell.key}  {shapes}"[:200], flush=True)
    except BaseException as exc:
        last = traceback.extract_tb(exc.__traceback__)[-1]
        text = (str(exc).strip().splitlines() or [""])[0][:160]
        print(f"FAIL {cell.key} [{stage}] {type(exc).__name__}: {text} @{Path(last.filename).name}:{last.lineno}")
