"""The mindnlp Cells of bench/realcells/cells.py that take a config object: how they were picked.

Candidates: every class of mindnlp 0.3.1's `transformers/models` with a `graphmend check` finding (the
default rules), an `__init__` whose first parameter is `config` and a `construct`, that is a component
(its name neither ends in `Model` nor holds `For`: whole models need tokenizer-sized inputs and
weights). From them, a sample drawn with a fixed seed, before any was measured:

    .venv/bin/python bench/realcells/pick_config_cells.py        # after fetch.py; prints the sample

Drawing, not choosing, keeps the set from leaning toward the patterns graphmend already fixes.
"""

from __future__ import annotations

import ast
import json
import random
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
MODELS = HERE / "src" / "mindnlp" / "mindnlp" / "transformers" / "models"
SEED, SIZE = 20261202, 12


def candidates() -> list[tuple[str, str]]:
    graphmend = Path(sys.executable).with_name("graphmend")
    done = subprocess.run([str(graphmend), "check", str(MODELS), "--output-format", "json", "--no-cache", "-q"],
                          capture_output=True, text=True, check=False)  # fmt: skip
    by_file: dict[str, list[int]] = defaultdict(list)
    for finding in json.loads(done.stdout):
        by_file[finding["filename"]].append(finding["location"]["row"])
    found = []
    for filename, rows in sorted(by_file.items()):
        for cls in ast.parse(Path(filename).read_text(encoding="utf-8")).body:
            if not isinstance(cls, ast.ClassDef) or not any(cls.lineno <= r <= cls.end_lineno for r in rows):
                continue
            methods = {m.name: m for m in cls.body if isinstance(m, ast.FunctionDef)}
            init = methods.get("__init__")
            if init is None or "construct" not in methods or [a.arg for a in init.args.args[1:2]] != ["config"]:
                continue
            if cls.name.endswith("Model") or "For" in cls.name:
                continue
            found.append((str(Path(filename).relative_to(HERE / "src" / "mindnlp")), cls.name))
    return found


if __name__ == "__main__":
    every = candidates()
    print(f"{len(every)} candidates; the sample (seed {SEED}):")
    for path, name in sorted(random.Random(SEED).sample(every, SIZE)):
        print(f"  {path} {name}")
