"""The edits in the machine outputs are the whole fix: applied as an editor or a bot applies them, they
give `fix`'s output byte for byte (issue 16, item 2).

The JSON (`--output-format json`, ruff's shape) and SARIF (`artifactChanges`) of every fixable finding
carry every edit its fix makes: the rewritten expression and the import lines it adds or changes.
They are applied the way ruff applies its own fixes: fixes in order of their first edit; an edit that
is already in the text (the same `import mindspore` two fixes need) is skipped; a fix that overlaps one
already applied waits for the next round, which starts from a new `check` of the result, as `fix`
does with its passes.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from test_golden import CASES, _rules

from graphmend import engine
from graphmend.output.formats import as_json, sarif

GRAPHMEND = str(Path(sys.executable).parent / "graphmend")
ROUNDS = 10


def apply_edits(text: str, fixes: list[list[tuple[int, int, int, int, str]]]) -> tuple[str, int]:
    """Apply ruff-style; returns the text and how many fixes were applied."""
    starts = engine.line_offsets(text)

    def offset(line: int, column: int) -> int:
        return starts[line - 1] + column - 1

    spans = [[(offset(a, b), offset(c, d), content) for a, b, c, d, content in fix] for fix in fixes]
    applied: set[tuple[int, int, str]] = set()
    chosen: list[tuple[int, int, str]] = []
    last = -1
    for fix in sorted(spans, key=lambda edits: min(edits)):
        fresh = sorted((e for e in fix if e not in applied), key=lambda e: e[:2])  # stable: as given at one place
        if fresh and fresh[0][0] < last:
            continue  # overlaps a fix already taken: next round
        chosen += fresh
        applied.update(fresh)
        if fresh:
            last = fresh[-1][1]
    pieces, at = [], 0
    for start, end, content in sorted(chosen, key=lambda e: e[:2]):  # stable: insertions at one place in order
        pieces += [text[at:start], content]
        at = end
    return "".join([*pieces, text[at:]]), len(chosen)


def _json_fixes(findings_json: list[dict], unsafe: bool) -> list[list[tuple[int, int, int, int, str]]]:
    allowed = ("safe", "unsafe") if unsafe else ("safe",)
    return [
        [
            (
                e["location"]["row"],
                e["location"]["column"],
                e["end_location"]["row"],
                e["end_location"]["column"],
                e["content"],
            )
            for e in f["fix"]["edits"]
        ]  # fmt: skip
        for f in findings_json
        if f["fix"] and f["fix"]["applicability"] in allowed
    ]


def _sarif_fixes(document: dict, unsafe: bool) -> list[list[tuple[int, int, int, int, str]]]:
    fixes = []
    for result in document["runs"][0]["results"]:
        for fix in result.get("fixes", ()):
            if fix["description"]["text"] == "safe fix" or unsafe:
                (change,) = fix["artifactChanges"]
                fixes.append([(r["deletedRegion"]["startLine"], r["deletedRegion"]["startColumn"],
                               r["deletedRegion"]["endLine"], r["deletedRegion"]["endColumn"],
                               r["insertedContent"]["text"]) for r in change["replacements"]])  # fmt: skip
    return fixes


@pytest.mark.parametrize("case", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
@pytest.mark.parametrize("output", ["json", "sarif"])
def test_machine_edits_give_the_output_of_fix(case: Path, output: str) -> None:
    source = case.read_text(encoding="utf-8")
    unsafe = "unsafe" in case.stem
    rules = _rules(case)
    text = source
    for _ in range(ROUNDS):
        findings = engine.check(text, case.name, rules)
        if output == "json":
            fixes = _json_fixes(json.loads(as_json(findings)), unsafe)
        else:
            fixes = _sarif_fixes(json.loads(sarif(findings)), unsafe)
        text, applied = apply_edits(text, fixes)
        if not applied:
            break
    assert text == engine.fix(source, case.name, rules, unsafe=unsafe).output


def test_an_edit_of_the_json_adds_the_import_the_fix_needs(tmp_path: Path) -> None:
    """Through the CLI on a real file: GM101's fix needs `ops`, which the file does not import."""
    (tmp_path / "head.py").write_text(
        "import numpy as np\n"
        "from mindspore import nn\n"
        "\n\n"
        "class Head(nn.Cell):\n"
        "    def construct(self, x):\n"
        "        return x + np.ones((x.shape[0], 8))\n",
        encoding="utf-8",
    )
    run = subprocess.run([GRAPHMEND, "check", "--no-cache", "--output-format", "json", "head.py"],
                         cwd=tmp_path, capture_output=True, text=True)  # fmt: skip
    assert run.returncode == 1, run.stderr
    (finding,) = json.loads(run.stdout)
    assert [edit["content"] for edit in finding["fix"]["edits"]] == [
        "import mindspore\n",
        "from mindspore import nn, ops\n",
        "ops.ones((x.shape[0], 8), mindspore.float64)",
    ]
    source = (tmp_path / "head.py").read_text(encoding="utf-8")
    applied, _ = apply_edits(source, _json_fixes([finding], unsafe=False))
    subprocess.run([GRAPHMEND, "fix", "--no-cache", "-q", "head.py"], cwd=tmp_path, check=False)
    assert applied == (tmp_path / "head.py").read_text(encoding="utf-8")
    compile(applied, "head.py", "exec")
