"""`Values.rank` stands on one measured fact: MindSpore 2.10's convolution layers take only batched input
(N+2 dimensions) and give as many. Measured here in a child process, in PyNative and GRAPH_MODE, so that a
MindSpore that accepted unbatched input (as torch does) would fail this test instead of GM507's safe fix."""

from __future__ import annotations

import json
import subprocess
import sys

from graphmend.values import _CONV_RANKS

_MEASURE = """
import json, sys
import numpy as np
import mindspore as ms
from mindspore import nn
ranks = json.loads(sys.argv[1])
found = {}
for mode in ("pynative", "graph"):
    ms.set_context(mode=ms.PYNATIVE_MODE if mode == "pynative" else ms.GRAPH_MODE)
    for name, rank in ranks.items():
        cell = getattr(nn, name)(2, 2, 1)
        for tried in (rank - 1, rank, rank + 1):
            try:
                out = cell(ms.Tensor(np.ones([2] * tried, np.float32)))
                found[f"{mode} {name} {tried}"] = len(out.shape)
            except Exception:
                found[f"{mode} {name} {tried}"] = None
print(json.dumps(found))
"""


def test_convolution_layers_take_and_give_exactly_n_plus_2_dimensions():
    done = subprocess.run(
        [sys.executable, "-c", _MEASURE, json.dumps(_CONV_RANKS)], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    expected = {}
    for mode in ("pynative", "graph"):
        for name, rank in _CONV_RANKS.items():
            expected |= {f"{mode} {name} {rank - 1}": None, f"{mode} {name} {rank}": rank}
            expected |= {f"{mode} {name} {rank + 1}": None}
    assert found == expected
