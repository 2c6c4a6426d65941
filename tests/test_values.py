"""One answer to "is this a tensor?": the value model, and every rule family asked the same question.

Each row puts an expression into the same small Cell and states what it is. The model is asked
directly (`ctx.values.tensor`), then each family is asked through a rule whose finding depends on
nothing but that answer:
- host data (GM104 `Tensor(len(e), ...)`, GM105 `Tensor([e, e], ...)`) and shapes (GM301 `len(e)`) act
  on KNOWN tensors only (`Caution.CERTAIN`);
- the PyTorch port (GM501 `e.size(0)`, GM504 `e.argmax()`) acts on anything not ruled out
  (`Caution.POSSIBLE`): a torch method name is itself evidence.
A rule that answered differently from the table (the old `len(x)` flagged by GM104 and left alone
by GM301) fails here.
"""

from __future__ import annotations

import libcst as cst
import pytest

from graphmend import engine, select_rules
from graphmend.values import KNOWN, MAYBE, NOT, Answer

CELL = """\
import numpy as np
import mindspore as ms
from mindspore import Tensor, mint, nn, ops


class Probe(nn.Cell):
    def __init__(self, dim):
        super().__init__()
        self.weight = ms.Parameter(Tensor(np.ones(2), ms.float32))
        self.zero = Tensor(0.0, ms.float32)
        self.dense = nn.Dense(2, 2)
        self.layers = nn.CellList([nn.Dense(2, 2)])
        self.scale = 2.0
        self.dim = dim

    def construct(self, x, feats, t: Tensor):
        h = x.view(2, -1)
        n = x.shape[0]
        y = ops.relu(t)
        host = np.zeros((2, 3))
        {statement}
        return h, y, host
"""

# expression in `Probe.construct` → what it is
TENSORS: dict[str, Answer] = {
    "x": KNOWN,  # a construct parameter used as only an array can be (`x.view`)
    "feats": MAYBE,  # a construct parameter nothing speaks for: may be a list of feature maps
    "t": KNOWN,  # annotated `Tensor`
    "y": KNOWN,  # bound to an ops result
    "ops.relu(x)": KNOWN,
    "mint.ones(2)": KNOWN,
    "x + 1": KNOWN,
    "Tensor(0.0)": KNOWN,
    "self.weight": KNOWN,  # a Parameter set in __init__
    "self.zero": KNOWN,  # a Tensor set in __init__
    "self.dense(x)": KNOWN,  # an nn layer's output
    "self.dim": MAYBE,  # an __init__ argument
    "len(x)": NOT,
    "x.shape[0]": NOT,
    "n": NOT,  # bound to a dimension
    "ops.shape(x)": NOT,
    "int(t)": NOT,
    "t.item()": NOT,
    "mint.distributed.is_available()": NOT,
    "np.ones(3)": NOT,
    "host": NOT,  # bound to host numpy
    "self.dense": NOT,  # a Cell
    "self.layers": NOT,  # a CellList
    "self.scale": NOT,  # a Python number
    "self.training": NOT,
    "[x, t]": NOT,  # a list (of tensors)
    "None": NOT,
    "self": NOT,
}

# expression → whether it is one shape dimension (not a compile-time int with a dynamic batch)
DIMENSIONS: dict[str, bool] = {
    "x.shape[0]": True,
    "len(x)": True,  # x is a KNOWN tensor
    "n": True,
    "x.shape[2] * 2": True,
    "ops.shape(x)[0]": True,
    "len(feats)": False,  # feats may be a list: its len is a constant then
    "len(self.layers)": False,
    "self.scale": False,
    "3": False,
}

# family → (rule, the statement that asks the rule about `{e}`, the answers the rule acts on)
CERTAIN, POSSIBLE = {KNOWN}, {KNOWN, MAYBE}
FAMILIES = {
    "host data": [
        ("GM104", "probe = Tensor(len({e}), ms.int32)", CERTAIN),
        ("GM105", "probe = Tensor([{e}, {e}])", CERTAIN),
    ],
    "shapes": [("GM301", "probe = len({e})", CERTAIN)],
    "torch port": [("GM501", "probe = ({e}).size(0)", POSSIBLE), ("GM504", "probe = ({e}).argmax()", POSSIBLE)],
}
DIMENSION_PROBES = [("GM104", "probe = Tensor({e}, ms.int32)"), ("GM402", "for _ in range({e}):\n            pass")]


def _fires(rule: str, statement: str) -> bool:
    """`rule` reports the probe itself (in `len(len(x))` the inner `len(x)` is another question)."""
    findings = engine.check(CELL.format(statement=statement), "probe.py", select_rules([rule]))
    whole = statement.removeprefix("probe = ")
    return any(f.code == rule and (f.original == whole or whole == statement) for f in findings)


def _probe_value(expression: str, question):
    """Ask the model `question(values, node)` about `expression` in `Probe.construct`."""
    module = engine.parse(CELL.format(statement=f"probe = {expression}"))
    ctx = engine.analyze(module, "probe.py", [])
    ctx.current = next(f for f in ctx.graph_functions if f.node.name.value == "construct")
    assign = next(
        s.body[0]
        for s in ctx.current.node.body.body
        if isinstance(s, cst.SimpleStatementLine)
        and isinstance(s.body[0], cst.Assign)
        and ctx.code(s.body[0].targets[0].target) == "probe"
    )
    return question(ctx.values, assign.value)


@pytest.mark.parametrize("expression", TENSORS)
def test_the_model_gives_the_table_answer(expression: str) -> None:
    assert _probe_value(expression, lambda values, node: values.tensor(node)) is TENSORS[expression]


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("expression", TENSORS)
def test_every_family_acts_on_the_same_answer(family: str, expression: str) -> None:
    answer = TENSORS[expression]
    for rule, statement, acts_on in FAMILIES[family]:
        fired = _fires(rule, statement.format(e=expression))
        assert fired == (answer in acts_on), f"{rule} on {statement.format(e=expression)!r} (table: {answer.name})"


@pytest.mark.parametrize("expression", DIMENSIONS)
def test_dimensions_are_one_answer(expression: str) -> None:
    expected = DIMENSIONS[expression]
    assert _probe_value(expression, lambda values, node: values.is_dimension(node)) is expected
    for rule, statement in DIMENSION_PROBES:
        fired = _fires(rule, statement.format(e=expression))
        assert fired == expected, f"{rule} on {statement.format(e=expression)!r}"


# expression → whether it is a rank (`is_rank`), and whether it is known before any input (`is_static`); GM101
# leaves a bare numpy constructor of a rank alone (tests/verify_rules/host_data/gm101_static_rank.py)
RANKS: dict[str, tuple[bool, bool]] = {
    "x.ndim": (True, True),
    "len(x.shape)": (True, True),
    "x.ndim - 1": (True, True),
    "x.ndim - n": (False, False),  # n is a dimension
    "x.shape[0]": (False, False),
    "len(x)": (False, False),
    "n": (False, False),
    "3": (False, True),
}


@pytest.mark.parametrize("expression", RANKS)
def test_a_rank_is_known_with_a_dynamic_batch_a_dimension_is_not(expression: str) -> None:
    rank, static = RANKS[expression]
    assert _probe_value(expression, lambda values, node: values.is_rank(node)) is rank
    assert _probe_value(expression, lambda values, node: values.is_static(node)) is static
    fired = _fires("GM101", f"probe = np.arange({expression})")
    assert fired is not rank, f"GM101 on np.arange({expression})"
