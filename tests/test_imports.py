"""The imports a fix adds go where isort puts them (issue 16, item 7): ruff's `I` rules, run on what `fix`
writes, find nothing to sort in a file whose imports were sorted before; and the JSON edits, applied one fix
at a time, still give `fix`'s output (tests/test_machine_edits.py does that on every golden case)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from test_machine_edits import ROUNDS, _json_fixes, apply_edits

from graphmend import engine
from graphmend.output.formats import as_json
from graphmend.rules import select_rules

ALL_RULES = select_rules()
RUFF = str(Path(sys.executable).parent / "ruff")
GRAPHMEND = str(Path(sys.executable).parent / "graphmend")
BODY = """

class Net(nn.Cell):
    def construct(self, x):
        ones = np.ones((x.shape[0], 8))  # GM101: `ops` and `mindspore.float64`
        return ops_free(x) if x.shape[0] else ones
"""

# Each layout is sorted as isort (ruff's defaults) sorts it; the fix needs `ops` and `mindspore`.
LAYOUTS = {
    "third-party only": "import numpy as np\nfrom mindspore import nn\n",
    "stdlib, then third party": "import os\nimport sys\n\nimport numpy as np\nfrom mindspore import Tensor, nn\n",
    "an aliased from-import stays alone": (
        "import numpy as np\nfrom mindspore import jit as compile_me\nfrom mindspore import nn\n"
    ),
    "docstring and __future__": (
        '"""Doc."""\n\nfrom __future__ import annotations\n\nimport numpy as np\nfrom mindspore import nn\n'
    ),
    "relative imports after": "import numpy as np\nfrom mindspore import nn\n\nfrom .helpers import ops_free\n",
    "a comment heads the block": "# third party\nimport numpy as np\nfrom mindspore import nn\n",
    "parenthesized, one name a line": (
        "import numpy as np\nfrom mindspore import (\n    Parameter,\n    Tensor,\n    nn,\n)\n"
    ),
    "only stdlib and mindspore's nn as a module": "import os\n\nimport mindspore.nn as nn\nimport numpy as np\n",
}


def _fix(source: str) -> str:
    return engine.fix(source, "net.py", ALL_RULES).output


@pytest.mark.parametrize("layout", LAYOUTS, ids=str)
def test_added_imports_are_where_isort_puts_them(layout: str, tmp_path: Path) -> None:
    source = LAYOUTS[layout] + BODY
    assert _isort_findings(source, tmp_path) == [], "the layout itself must be sorted"
    fixed = _fix(source)
    assert fixed != source and "ops.ones(" in fixed
    assert _isort_findings(fixed, tmp_path) == [], fixed
    compile(fixed, "net.py", "exec")


@pytest.mark.parametrize("layout", LAYOUTS, ids=str)
def test_json_edits_applied_fix_by_fix_give_the_output_of_fix(layout: str) -> None:
    source = (
        LAYOUTS[layout]
        + BODY
        + ("\n\nclass Other(nn.Cell):\n    def construct(self, x):\n        return x.to(torch.long)\n")
    )  # a second fix that needs only `import mindspore`
    text = source
    for _ in range(ROUNDS):
        fixes = _json_fixes(json.loads(as_json(engine.check(text, "net.py", ALL_RULES))), unsafe=False)
        text, applied = apply_edits(text, fixes)
        if not applied:
            break
    assert text == _fix(source)


def test_names_join_a_sorted_line_at_their_place_and_an_unsorted_one_at_its_end() -> None:
    sorted_line = _fix("import numpy as np\nfrom mindspore import Tensor, nn, numpy\n" + BODY)
    assert "from mindspore import Tensor, nn, numpy, ops\n" in sorted_line
    middle = _fix("import numpy as np\nfrom mindspore import Tensor, nn, tensor\n" + BODY)
    assert "from mindspore import Tensor, nn, ops, tensor\n" in middle
    unsorted = _fix("import numpy as np\nfrom mindspore import nn, Tensor\n" + BODY)
    assert "from mindspore import nn, Tensor, ops\n" in unsorted


def test_an_unsorted_block_gets_the_new_line_before_the_first_that_sorts_after_it() -> None:
    fixed = _fix("from mindspore import nn\nimport numpy as np\n" + BODY)
    assert fixed.startswith("import mindspore\nfrom mindspore import nn, ops\nimport numpy as np\n")


def _isort_findings(source: str, tmp_path: Path) -> list[dict]:
    path = tmp_path / "net.py"
    path.write_text(source, encoding="utf-8")
    run = subprocess.run(
        [RUFF, "check", "--isolated", "--select", "I", "--output-format", "json", str(path)],
        capture_output=True, text=True, cwd=tmp_path,
    )  # fmt: skip
    assert run.returncode in (0, 1), run.stderr
    return json.loads(run.stdout)


def test_fix_through_the_cli_writes_sorted_imports(tmp_path: Path) -> None:
    path = tmp_path / "net.py"
    path.write_text(LAYOUTS["stdlib, then third party"] + BODY, encoding="utf-8")
    check = subprocess.run([GRAPHMEND, "check", "--no-cache", "--output-format", "json", "net.py"],
                           cwd=tmp_path, capture_output=True, text=True)  # fmt: skip
    (finding,) = json.loads(check.stdout)
    assert [(e["location"]["row"], e["content"]) for e in finding["fix"]["edits"][:2]] == [
        (4, "import mindspore\n"),  # an insertion of its own, before `import numpy as np`
        (5, "from mindspore import Tensor, nn, ops\n"),
    ]
    fix = subprocess.run([GRAPHMEND, "fix", "--no-cache", "net.py"], cwd=tmp_path, capture_output=True, text=True)
    assert fix.returncode == 0, fix.stdout + fix.stderr
    assert path.read_text(encoding="utf-8").startswith(
        "import os\nimport sys\n\nimport mindspore\nimport numpy as np\nfrom mindspore import Tensor, nn, ops\n"
    )
    assert _isort_findings(path.read_text(encoding="utf-8"), tmp_path) == []
