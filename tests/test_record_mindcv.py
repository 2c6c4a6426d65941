"""The whole migration on real code: mindcv 0.3.0 (the pinned corpus wheel, bench/corpus.py), recorded once
and fixed with every touched Cell proven from the recording.

A script builds `edgenext_xx_small` from the package with random weights and runs one forward pass on a
random image under `graphmend record`; then `fix --verify --recorded` runs on a copy of the package.
graphmend's default fix touches five Cells in five files of mindcv; the forward pass reaches one of them
(edgenext's PositionalEncodingFourier), which is proven with its recorded constructor, Parameters and
inputs; the four it does not reach are listed by name, and every fixed file is written.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))

import corpus  # noqa: E402

GRAPHMEND = str(Path(sys.executable).parent / "graphmend")
FORWARD = """\
import numpy as np
import mindspore as ms
import mindcv

ms.set_seed(0)
model = mindcv.create_model("edgenext_xx_small", pretrained=False)
model.set_train(False)
image = ms.Tensor(np.random.default_rng(0).standard_normal((1, 3, 224, 224)).astype(np.float32))
print(model(image).shape)
"""
TOUCHED = {
    "mindcv/loss/asymmetric.py:AsymmetricLossSingleLabel",
    "mindcv/models/coat.py:CoaT",
    "mindcv/models/crossvit.py:VisionTransformer",
    "mindcv/models/xcit.py:PositionalEncodingFourier",
}


@pytest.fixture(scope="module")
def mindcv(tmp_path_factory) -> Path:
    corpus.WHEELS.mkdir(parents=True, exist_ok=True)
    with open(corpus.WHEELS / ".lock", "w") as lock:  # xdist workers download one at a time
        fcntl.flock(lock, fcntl.LOCK_EX)
        wheel = corpus.download("mindcv", *corpus.PACKAGES["mindcv"])
    root = tmp_path_factory.mktemp("mindcv") / "orig"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(root, [m for m in archive.namelist() if m.startswith("mindcv/")])
    return root


def test_record_then_fix_verify_recorded_on_mindcv(mindcv: Path, tmp_path: Path):
    (tmp_path / "forward.py").write_text(FORWARD)
    recording = tmp_path / "rec"
    env = {**os.environ, "PYTHONPATH": str(mindcv)}
    command = [GRAPHMEND, "record", "-o", str(recording), "--tree", str(mindcv), "--", sys.executable, "forward.py"]
    recorded = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)
    assert recorded.returncode == 0, recorded.stderr
    assert "(1, 1000)" in recorded.stdout
    assert "mindcv.models.edgenext:PositionalEncodingFourier: 1 call(s), 1 sample(s)" in recorded.stderr
    (index,) = recording.glob("cells-*.json")
    cells = json.loads(index.read_text())["cells"]
    assert "mindcv/models/edgenext.py:EdgeNeXt" in cells and "mindcv/models/xcit.py:XCiT" not in cells

    work = tmp_path / "work"
    shutil.copytree(mindcv, work)
    before = {p: p.read_bytes() for p in work.rglob("*.py")}
    fixed = subprocess.run([GRAPHMEND, "fix", "--verify", "--recorded", str(recording), "--no-cache", "mindcv"],
                           cwd=work, capture_output=True, text=True, timeout=1800)  # fmt: skip
    assert fixed.returncode == 1, fixed.stderr  # one finding has no fix
    err = fixed.stderr
    assert "verified 5 Cell(s): 1 proven, 0 failed, 0 could not run, 4 not verified from the recording" in err
    for cell in TOUCHED:
        assert f"not verified: {cell}: not reached by the recording" in err
    assert "graphmend verify mindcv/models/edgenext.py:PositionalEncodingFourier" in fixed.stdout
    assert fixed.stdout.count("PASS: every requested check passes after the rewrite") == 1
    assert "Fixed 5 finding(s) in 5 file(s); 1 remaining" in err
    changed = sorted(str(p.relative_to(work)) for p, data in before.items() if p.read_bytes() != data)
    assert changed == ["mindcv/loss/asymmetric.py", "mindcv/models/coat.py", "mindcv/models/crossvit.py",
                       "mindcv/models/edgenext.py", "mindcv/models/xcit.py"]  # fmt: skip
