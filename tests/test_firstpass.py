"""The first pass (graphmend.firstpass) skips only files the full analysis finds nothing in.

On every golden input and bundled example, the rules the first pass rules out are run with the full analysis
(libcst, scopes, graph code): none may find anything. bench/corpus_check.py does the same on the corpus.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from graphmend import engine, files, firstpass
from graphmend.rules import RULES, select_rules

ROOT = Path(__file__).resolve().parent.parent
INPUTS = sorted(p for p in (ROOT / "golden").rglob("*.py") if not p.name.endswith(".expected.py"))
INPUTS += sorted((ROOT / "examples").rglob("*.py"))


def _facts(source: str) -> firstpass.Facts:
    data = source.encode()
    return firstpass.Facts(ast.parse(data), data)


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_rules_ruled_out_find_nothing(path: Path) -> None:
    data = path.read_bytes()
    facts = firstpass.Facts(ast.parse(data), data)
    ruled_out = [rule for rule in RULES.values() if not rule.may_find(facts)]
    codes = {rule.CODE for rule in ruled_out}
    found = [f for f in engine.check(data, str(path), ruled_out) if f.code in codes]
    assert found == [], [f"{f.code} line {f.line}" for f in found]


def test_the_golden_cases_rule_something_out() -> None:
    """The test above is not vacuous: on golden files the pass rules out rules of every kind (every golden
    file has graph code or a Cell, so whole files are ruled out only on the corpus: bench/corpus_check.py)."""
    ruled_out = set()
    for path in INPUTS:
        data = path.read_bytes()
        facts = firstpass.Facts(ast.parse(data), data)
        ruled_out |= {rule.CODE for rule in RULES.values() if not rule.may_find(facts)}
    assert {"GM101", "GM203", "GM205", "GM613", "GM614"} <= ruled_out


@pytest.mark.parametrize(
    "source",
    [
        "class Net(nn.Cell):\n    def construct(self, x):\n        return x\n",
        "class Net(Base):\n    if True:\n        def bprop(self, x, out, dout):\n            return dout\n",
        "class Net(nn.Cell):\n    async def construct(self, x):\n        return x\n",
        "@jit\ndef f(x):\n    return x\n",
        "import mindspore as ms\n@ms.jit(capture_mode='ast')\ndef f(x):\n    return x\n",
        "from mindspore import jit as compiled\n\ndef outer():\n    @compiled\n    def f(x):\n        return x\n",
        "try:\n    pass\nexcept ImportError:\n    class A:\n        def construct(self):\n            pass\n",
    ],
)
def test_graph_code_in_any_spelling_is_seen(source: str) -> None:
    assert _facts(source).graph


@pytest.mark.parametrize(
    "source",
    [
        "from mindspore import nn\n\nclass Net(nn.Cell):\n    def __init__(self):\n        super().__init__()\n",
        "def construct(x):\n    return x\n",  # not a method
        "@functools.cache\ndef f(x):\n    return x\n",
        "x = jit\n",
    ],
)
def test_no_graph_code(source: str) -> None:
    assert not _facts(source).graph


def test_cell_rules_say_what_they_need() -> None:
    cells = "from mindspore import nn\n\nclass Stack(nn.Cell):\n    def __init__(self):\n        super().__init__()\n"
    assert RULES["GM203"].may_find(_facts(cells + "        self.layers = [nn.Dense(2, 2) for _ in range(3)]\n"))
    assert not RULES["GM203"].may_find(_facts(cells + "        self.layers = nn.CellList([])\n"))
    assert RULES["GM614"].may_find(_facts(cells + "        self.w = Parameter(ops.ones(2), name='w')\n"))
    assert not RULES["GM614"].may_find(_facts(cells))
    assert not RULES["GM101"].may_find(_facts(cells))  # a rule of graph code: no graph function here


def test_a_file_ruled_out_never_reaches_libcst(monkeypatch) -> None:
    def parse(source):
        raise AssertionError("libcst was asked to parse a file the first pass rules out")

    monkeypatch.setattr(engine, "parse", parse)
    data = b"from mindspore import nn\n\nclass Wrap(nn.Cell):\n    def __init__(self, net):\n        self.net = net\n"
    result = files.process_source("wrapper.py", data, select_rules(["ALL"]), fix=True)
    assert result.error is None and result.findings == () and not result.changed
    # with a suppression comment, it goes on (GM000 may report it)
    with pytest.raises(AssertionError, match="libcst was asked"):
        files.process_source("w.py", data + b"x = 1  # graphmend: ignore[GM101]\n", select_rules(["ALL"]), fix=False)
