"""GM511's plans compute what einsum computes.

The emitted code is evaluated with numpy standing in for MindSpore (the same transposes, `None` axes,
sums, squeezes and broadcasting matmul) on random shapes, for the equations of the corpus and for every
equation a seeded generator draws, against `numpy.einsum`. Then graphmend's own fix of the verifier Cell
runs in PyNative in a child process, against the original with `ops.einsum` computed by numpy.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from graphmend import fix_source
from graphmend.rules.gm511_einsum import translate

CELL = Path(__file__).resolve().parent / "verify_rules" / "torch_port" / "gm511_einsum.py"

# the equations of the six-package corpus and of mindnlp 0.3.1 (bench/realcells), as written
SEEN = [
    "bnqd,bnkd->bnqk", "bhld,lrd->bhlr", "bhrd,lrd->bhlr", "i,j->ij", "ibh,hnd->ibnd", "ijbn->bnij",
    "ibnd,jbnd->bnij", "blq,blk->blqk", "blq,bhlk->bhlqk", "blh,bl->bh", "balh,ahr->balr", "bd,dn->bn",
    "d,id->i", "bsj,j->bs", "bqc, bqhw -> bchw", "bqc, bchw -> bqhw", "bhwc,wkc->bhwk", "bsij,bsjk->bsik",
    "nhwpqc->nchpwq", "i , j -> i j", "bnhtc,bnhsc->bnhts", "bnd,csd->bcns", "blhd,bshd->blhs",
    "bcxd,bcyd->bcxy", "blhs,bshd->blhd", "bntc,bncs->bnts", "m,d->md", "ij,jk", "ij->", "ii->i",
    "bnqk,bnqk->bnq", "i,i->", "...hqk,...khd->...qhd", "...qhd,...khd->...hqk", "...qc, ...kc -> ...qk",
    "...nd,...ng->...gd", "...hqk,...hkc->...qhc", "ibnd,hnd->ibh",
    # `mint.einsum` in the six-package corpus (GM512)
    "..., f -> ... f", "...n,d->...nd", "...pd,...qd->...pq", "...si,...id->...sd", "BHGF,BHXF->BHGX",
    "BHGX,BHXF->BHGF", "BHNKF,BHGF->BHNKG", "BHNKF,BHNXF->BHNKX", "BHNKG,BHGF->BHNKF", "BHNKX,BHNXF->BHNKF",
    "b m h c d, c r d -> b m h c r", "b,be->be", "bcwd,bcdh->bcwh", "bd,bkd->bk", "bhlk,bhtk->bhlt",
    "bhlqd,bhkd->bhlqk", "bhlqk,bhkd->bhlqd", "bhlt,bhtv->bhlv", "bhwc,hkc->bhwk", "bildsk,biokl->bolsd",
    "bind,bjnd->bnij", "bind,jd->bnij", "bind,snd->bnis", "binh,dnh->bind", "binh,tnh->bnit",
    "bknm,bmkc->bnkc", "bm,be->ebm", "bmtd,mdhr->bmhtr", "bnhts,bnhsc->bnhtc", "bnid,bijd->bnij",
    "bnij,bjnd->bind", "bnij,jbnd->ibnd", "bnij->ijbn", "bnkc,bmkc->bknm", "bqc,bchw->bqhw", "i,d->id",
    "i...->i", "ibnd,snd->ibns", "ijbs,ibns->bnij", "lbnd,mlb->mbnd", "lbqc, bchw -> lbqhw", "mbnd,mlb->lbnd",
    "nchpwq->nhwpqc", "nhwcpq->nchpwq", "td,dnh->tnh",
]  # fmt: skip
# a diagonal; an ellipsis not leading every subscript
NO_PLAN = {"ii->i", "..., f -> ... f", "...n,d->...nd", "i...->i"}


def _flatten(x, start_dim=1, end_dim=-1):
    """`ops.flatten` with its keyword dims, on a numpy array."""
    start, end = start_dim % x.ndim, end_dim % x.ndim
    return x.reshape(x.shape[:start] + (-1,) + x.shape[end + 1 :])


class _NumpyOps:
    matmul = staticmethod(np.matmul)
    transpose = staticmethod(np.transpose)
    swapaxes = staticmethod(np.swapaxes)
    movedim = staticmethod(np.moveaxis)
    flatten = staticmethod(_flatten)


_NAMES = {name: f"ops.{name}" for name in ("matmul", "transpose", "swapaxes", "movedim", "flatten")}


def _run(equation: str, rng: np.random.Generator):
    """(the plan's result, numpy's einsum) on random operands, or None where the rule has no plan."""
    inputs = "".join(equation.split()).split("->")[0].split(",")
    plan = translate(equation, len(inputs))
    if isinstance(plan, str):
        return None
    sizes = {x: int(rng.integers(1, 5)) for x in set("".join(inputs))}
    leading = [int(rng.integers(1, 4)) for _ in range(rng.integers(0, 3))]  # what `...` stands for
    shapes = [(leading if s.startswith("...") else []) + [sizes[x] for x in s.replace(".", "")] for s in inputs]
    operands = [rng.standard_normal(shape) for shape in shapes]
    names = {f"__gm_operand_{i}__": operand for i, operand in enumerate(operands)}
    got = eval(plan.code(_NAMES), {"ops": _NumpyOps, **names})
    return np.asarray(got), np.einsum(equation, *operands)


def _drawn(count: int, seed: int = 20, ellipsis: bool = False):
    """Equations over one or two operands: indices shared or not, summed or kept, in any output order (after a
    leading `...` in every subscript, with `ellipsis`)."""
    draw = random.Random(seed)
    lead = "..." if ellipsis else ""
    equations = []
    while len(equations) < count:
        letters = draw.sample("abcdefg", draw.randint(1, 6))
        inputs = [draw.sample(letters, draw.randint(0, min(4, len(letters)))) for _ in range(draw.randint(1, 2))]
        used = sorted({x for subscript in inputs for x in subscript})
        output = draw.sample(used, draw.randint(0, len(used)))
        equations.append(",".join(lead + "".join(s) for s in inputs) + "->" + lead + "".join(output))
    return equations


@pytest.mark.parametrize("equation", SEEN)
def test_the_corpus_equations_compute_what_einsum_computes(equation):
    found = _run(equation, np.random.default_rng(0))
    if equation in NO_PLAN:
        assert found is None
        return
    got, expected = found
    assert got.shape == expected.shape and np.allclose(got, expected)


@pytest.mark.parametrize("ellipsis", [False, True])
def test_drawn_equations_compute_what_einsum_computes(ellipsis):
    rng = np.random.default_rng(1)
    planned, wrong = 0, []
    for equation in _drawn(600, ellipsis=ellipsis):
        found = _run(equation, rng)
        if found is None:
            continue
        planned += 1
        got, expected = found
        if got.shape != expected.shape or not np.allclose(got, expected):
            wrong.append(equation)
    assert wrong == []
    assert planned > 500  # all but diagonals and repeated indices


@pytest.mark.parametrize(
    ("equation", "why"),
    [
        ("...hqk,khd->...qhd", "an ellipsis that is not the first index of every operand"),
        ("i...,j->ij", "an ellipsis that is not the first index of every operand"),
        ("ii->", "a repeated index in `ii`"),
        ("ab,bc,cd->ad", "3 operands"),
        ("ij,jk->il", "an output index no operand has"),
        ("Ij,jk", "no `->` and capital indices"),
    ],
)
def test_what_has_no_plan_says_why(equation, why):
    plan = translate(equation, equation.split("->")[0].count(",") + 1)
    assert isinstance(plan, str) and plan.startswith(why)


_AGAINST_NUMPY = """
import sys, types
import numpy as np
import mindspore
from mindspore import Tensor, ops

mindspore.set_context(mode=mindspore.PYNATIVE_MODE)
def run(source):
    module = types.ModuleType("cell")
    exec(compile(source, "cell.py", "exec"), module.__dict__)
    return [o.asnumpy() for o in module.Einsums()(x)]
x = Tensor(np.random.default_rng(0).standard_normal((2, 3, 4, 5)), mindspore.float32)
fixed = run(open(sys.argv[2]).read())
# the original, with the einsum CPU lacks computed by numpy
ops.einsum = lambda equation, *xs: Tensor(np.einsum(equation, *[t.asnumpy() for t in xs]), xs[0].dtype)
mindspore.einsum = ops.einsum  # what the port meant
original = run(open(sys.argv[1]).read())
for i, (a, b) in enumerate(zip(fixed, original)):
    assert a.shape == b.shape and a.dtype == b.dtype, (i, a.shape, b.shape, a.dtype, b.dtype)
    assert np.allclose(a, b, rtol=1e-5, atol=1e-5), (i, np.abs(a - b).max())
print("outputs", len(fixed))
"""


_MEASURE = """
import json, sys
import numpy as np
import mindspore
from mindspore import mint, nn, ops

found = {"top-level einsum": hasattr(mindspore, "einsum")}
x = mindspore.Tensor(np.ones((2, 3), np.float32))
try:
    ops.einsum("ij,ij->i", x, x)
except RuntimeError as e:
    found["ops.einsum on CPU"] = "Unsupported op [Einsum] on CPU" in str(e)


class Mint(nn.Cell):
    def construct(self, a, b):
        return mint.einsum("ij,ij->i", a, b)


for mode in ("pynative", "graph", "strict", "dynamic"):
    mindspore.set_context(mode=mindspore.PYNATIVE_MODE if mode == "pynative" else mindspore.GRAPH_MODE)
    mindspore.set_context(jit_syntax_level=mindspore.STRICT if mode == "strict" else mindspore.LAX)
    cell = Mint()
    if mode == "dynamic":
        cell.set_inputs(*[mindspore.Tensor(shape=[None, 3], dtype=mindspore.float32)] * 2)
    try:
        found["mint.einsum " + mode] = float(cell(x, x).asnumpy().sum())
    except Exception as e:
        found["mint.einsum " + mode] = str(e).strip().splitlines()[0][:60]
print(json.dumps(found))
"""


def test_what_gm511_says_of_mindspores_einsums(tmp_path):
    """Measured on the installed MindSpore: no top-level `einsum`; `ops.einsum` has no CPU kernel; `mint.einsum`
    (not reported) compiles in GRAPH and STRICT with static shapes, fails in PyNative on CPU and with a
    dynamic batch."""
    script = tmp_path / "measure.py"  # GRAPH_MODE compiles a Cell from its source file
    script.write_text(_MEASURE, encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found == {
        "top-level einsum": False,
        "ops.einsum on CPU": True,
        "mint.einsum pynative": "einsum only supports Ascend.",
        "mint.einsum graph": 6.0,
        "mint.einsum strict": 6.0,
        "mint.einsum dynamic": "For EinsumExt, dynamic shape or dynamic rank is not supporte",
    }


def test_the_fixed_cell_gives_numpys_einsum_numbers_in_pynative(tmp_path):
    result = fix_source(CELL.read_text(encoding="utf-8"), str(CELL), select=["GM511"])
    assert len(result.applied) == 15 and "einsum(" not in result.output.split("class Einsums")[1]
    fixed = tmp_path / "fixed.py"
    fixed.write_text(result.output, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", _AGAINST_NUMPY, str(CELL), str(fixed)], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip().splitlines()[-1] == "outputs 14"
