"""The Cells of mindcv, mindocr, mindyolo and mindaudio in bench/realcells/cells.py added for their fixes.

Candidates: every class of the four fetched wheels with a `construct` on which `graphmend check --unsafe-fixes`
(the default rules) reports a finding with a fix inside the class, and which the set does not hold yet. All of
them are taken, before any was measured: they test that each fix keeps PyNative's numbers and breaks no mode,
whatever the Cell failed before.

    .venv/bin/python bench/realcells/pick_fixable_cells.py        # after fetch.py; prints the candidates
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from cells import CELLS  # noqa: E402

PACKAGES = ("mindcv", "mindocr", "mindyolo", "mindaudio")


def candidates() -> list[tuple[str, str, str, list[str]]]:
    """(package, path in the package, class, the codes of its fixable findings)."""
    graphmend = Path(sys.executable).with_name("graphmend")
    roots = [str(HERE / "src" / p / p) for p in PACKAGES]
    done = subprocess.run([str(graphmend), "check", *roots, "--output-format", "json", "--no-cache", "-q"],
                          capture_output=True, text=True, check=False)  # fmt: skip
    by_file: dict[str, list[tuple[int, str]]] = {}
    for finding in json.loads(done.stdout):
        if finding["fix"] is not None:
            by_file.setdefault(finding["filename"], []).append((finding["location"]["row"], finding["code"]))
    held = {(c.package, c.path, c.name) for c in CELLS}
    found = []
    for filename, rows in sorted(by_file.items()):
        path = Path(filename).resolve()
        package = next(p for p in PACKAGES if (HERE / "src" / p) in path.parents)
        relative = str(path.relative_to(HERE / "src" / package))
        for cls in ast.parse(path.read_text(encoding="utf-8")).body:
            if not isinstance(cls, ast.ClassDef):
                continue
            codes = sorted({code for row, code in rows if cls.lineno <= row <= cls.end_lineno})
            methods = {m.name for m in cls.body if isinstance(m, ast.FunctionDef)}
            if codes and "construct" in methods and (package, relative, cls.name) not in held:
                found.append((package, relative, cls.name, codes))
    return found


if __name__ == "__main__":
    for package, path, name, codes in candidates():
        print(f"{package}  {path}  {name}  {' '.join(codes)}")
