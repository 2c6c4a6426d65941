"""Real MindSpore tracebacks for the explain tests: each rule's hostile Cell (graphmend.evidence CELLS) run
in a configuration that breaks it, all in one MindSpore child process.

Each run is a small script, `drive_<n>.py` in the directory given, that imports the Cell's module and
calls the Cell, as a user's training script would: Python's frames then name the script, MindSpore's
"Traceback of Net Construct Code" the Cell's file. Nothing is cached between test runs: every call runs
MindSpore again, so a MindSpore upgrade that changes a message fails a test instead of leaving a stale file.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from graphmend.evidence import CELLS, INPUT, REPO

# a user's script: the configuration, then calls as the verifier makes them (twice, then a grown batch
# when dynamic; export: ms.export, which compiles under STRICT)
DRIVER = """\
import numpy as np
import mindspore as ms
from {module} import {cell} as Net

CHECK, SHAPES, TRAIN = {check!r}, {shapes!r}, {train!r}


def tensor(shape, grow):
    rng = np.random.default_rng(0)
    return ms.Tensor(rng.standard_normal([s + grow if named else s for s, named in shape]).astype(np.float32))


ms.set_context(mode=ms.GRAPH_MODE, jit_syntax_level=ms.STRICT if CHECK in ("strict", "export") else ms.LAX)
net = Net()
net.set_train(TRAIN)
if CHECK == "export":
    ms.export(net, *[tensor(s, 0) for s in SHAPES], file_name="exported", file_format="MINDIR")
else:
    if CHECK == "dynamic":
        net.set_inputs(*[ms.Tensor(shape=[None if named else s for s, named in shape], dtype=ms.float32)
                         for shape in SHAPES])
    for grow in (0, 0, 1) if CHECK == "dynamic" else (0, 0):
        net(*[tensor(s, grow) for s in SHAPES])
"""

CHILD = r"""
import json, runpy, sys, traceback
sys.path.insert(0, sys.argv[1])
out = []
for index, script in enumerate(json.load(sys.stdin)):
    sys.stderr.write("\n@@JOB %d@@\n" % index)
    sys.stderr.flush()
    try:
        runpy.run_path(script, run_name="__main__")
        out.append(None)
    except BaseException:
        out.append(traceback.format_exc())
print("\n@@RESULTS@@" + json.dumps(out))
"""


def _cell(which: str) -> tuple[str, str, tuple[str, ...], bool]:
    if ":" in which:
        path, name = which.split(":")
        return path, name, INPUT, False
    cell = CELLS[which]
    return cell.path, cell.name, cell.inputs, cell.train


def shapes(inputs: tuple[str, ...]) -> list[list[tuple[int, bool]]]:
    """`float32[B,3,4,4]` → [(2, True), (3, False), ...]: the batch is named (dynamic), 2 at first. A
    value range (`float32[B,4]{-2,3}`) is left out: the tracebacks come from compiling, not from values."""
    out = []
    for spec in inputs:
        dims = re.fullmatch(r"float32\[(.*?)\](?:\{[^}]*\})?", spec).group(1).split(",")
        out.append([(2, True) if not d.isdigit() else (int(d), False) for d in dims])
    return out


def capture(
    jobs: list[tuple[str, str]], workdir: Path, python: str = sys.executable, stderr: dict[int, str] | None = None
) -> dict[tuple[str, str], str]:
    """(Cell, check) → the traceback it raised there ("" when it ran). A Cell is a rule code (its hostile
    Cell in CELLS) or `path:Name`. Each Cell's file is copied into `workdir` (a project: the scripts next to
    the model files) with the packages next to it, where MindSpore's files (analyze_fail.ir, rank_0/) go too."""
    scripts = []
    for index, (which, check) in enumerate(jobs):
        path, name, inputs, train = _cell(which)
        target = workdir / Path(path).name
        if not target.exists():
            shutil.copyfile(REPO / path, target)
        for package in (REPO / path).parent.iterdir():  # what the file imports from next to it (GM205's stand-in)
            if (package / "__init__.py").is_file() and not (workdir / package.name).exists():
                shutil.copytree(package, workdir / package.name, ignore=shutil.ignore_patterns("__pycache__"))
        script = workdir / f"drive_{index}_{which.replace('/', '_').replace(':', '_')}_{check}.py"
        script.write_text(DRIVER.format(module=target.stem, cell=name, check=check, shapes=shapes(inputs),
                                        train=train), encoding="utf-8")  # fmt: skip
        scripts.append(str(script))
    env = {**os.environ, "PYTHONSAFEPATH": "1"}
    done = subprocess.run([python, "-c", CHILD, str(workdir)], input=json.dumps(scripts), capture_output=True,
                          text=True, cwd=workdir, env=env, timeout=900)  # fmt: skip
    if stderr is not None:  # what each run wrote to stderr, by its index in `jobs`
        for chunk in re.split(r"\n@@JOB (?=\d+@@\n)", done.stderr)[1:]:
            number, _, text = chunk.partition("@@\n")
            stderr[int(number)] = text
    marker = done.stdout.rfind("@@RESULTS@@")
    if marker < 0:
        raise RuntimeError(f"the MindSpore child died (exit {done.returncode}):\n{done.stderr[-3000:]}")
    results = json.loads(done.stdout[marker + len("@@RESULTS@@") :])
    return {job: text or "" for job, text in zip(jobs, results, strict=True)}


def console(jobs: list[tuple[str, str]], workdir: Path) -> dict[tuple[str, str], str]:
    """What a user's console shows for each run: MindSpore's own log records on stderr (its [WARNING]s,
    the [ERROR] record some errors get), then the traceback."""
    stderr: dict[int, str] = {}
    found = capture(jobs, workdir, stderr=stderr)
    return {job: stderr.get(index, "") + found[job] for index, job in enumerate(jobs)}


if __name__ == "__main__":  # print them: python tests/tracebacks.py DIR GM201:graph GM303:strict
    found = capture([tuple(arg.rsplit(":", 1)) for arg in sys.argv[2:]], Path(sys.argv[1]))  # type: ignore[misc]
    for (code, check), text in found.items():
        print(f"===== {code} {check}\n{text}")
