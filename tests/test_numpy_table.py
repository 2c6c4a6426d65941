"""Every entry of `NUMPY_TO_OPS` measured on MindSpore: graphmend's own rewrite of a numpy call on tensors
is run in PyNative next to numpy on the same data, in one child process for the whole table, on float32,
float16 and int32 inputs. The table's `equal_on` / `values_on` must be what was measured: a fix is safe
only where the numbers *and* the dtype are numpy's (numpy promotes int32 to int64/float64, MindSpore
mostly does not), and GM103/GM106 read their fix safety from those two fields.
"""

from __future__ import annotations

import json
import subprocess
import sys

import libcst as cst
import pytest

from graphmend import fix_source
from graphmend.numpy_calls import FAILS_ON_TENSORS, MEASURED_DTYPES, NUMPY_TO_OPS

# one call per entry, on x (positive), y (signed), both of shape (2, 3, 4)
EXAMPLES = {
    "sum": "np.sum(x, axis=1, keepdims=True)",
    "mean": "np.mean(x, axis=(0, 2))",
    "max": "np.max(y, axis=2)",
    "amax": "np.amax(y)",
    "min": "np.min(y, axis=0, keepdims=True)",
    "amin": "np.amin(y, axis=1)",
    "prod": "np.prod(x, axis=1)",
    "std": "np.std(x, axis=1, ddof=1)",
    "var": "np.var(x, axis=2)",
    "all": "np.all(y, axis=1)",
    "argmax": "np.argmax(y, axis=1)",
    "argmin": "np.argmin(x, axis=2)",
    "cumsum": "np.cumsum(x, axis=1)",
    "abs": "np.abs(y)",
    "absolute": "np.absolute(y)",
    "sqrt": "np.sqrt(x)",
    "exp": "np.exp(y)",
    "log": "np.log(x)",
    "log1p": "np.log1p(x)",
    "log2": "np.log2(x)",
    "expm1": "np.expm1(y)",
    "sin": "np.sin(y)",
    "cos": "np.cos(y)",
    "tanh": "np.tanh(y)",
    "floor": "np.floor(x)",
    "ceil": "np.ceil(x)",
    "sign": "np.sign(y)",
    "square": "np.square(y)",
    "negative": "np.negative(y)",
    "reciprocal": "np.reciprocal(x)",
    "round": "np.round(x)",
    "isnan": "np.isnan(x)",
    "isinf": "np.isinf(x)",
    "isfinite": "np.isfinite(x)",
    "logical_not": "np.logical_not(y)",
    "logical_and": "np.logical_and(x, y)",
    "logical_or": "np.logical_or(y, y)",
    "maximum": "np.maximum(x, y)",
    "minimum": "np.minimum(y, 0)",
    "power": "np.power(x, 2)",
    "clip": "np.clip(y, -1, 1)",
    "where": "np.where(y > 0, x, y)",
    "concatenate": "np.concatenate([x, y], axis=1)",
    "stack": "np.stack([x, y])",
    "transpose": "np.transpose(x, (0, 2, 1))",
    "reshape": "np.reshape(x, (6, 4))",
    "expand_dims": "np.expand_dims(x, 1)",
    "squeeze": "np.squeeze(x[:, :1], axis=1)",
    "tile": "np.tile(x, (1, 2, 1))",
    "matmul": "np.matmul(x, y.transpose(0, 2, 1))",
}

_CELL = """\
import numpy as np
from mindspore import Tensor, nn, ops


class Table(nn.Cell):
    def construct(self, x, y):
        x = ops.abs(x)
        y = ops.neg(y)
{lines}
"""

CHILD = r"""
import json, sys
import numpy as np
import mindspore as ms
from mindspore import Tensor, ops

cases = json.load(sys.stdin)
base = np.arange(24).reshape(2, 3, 4)
result = {}
for dtype in ("float32", "float16", "int32"):
    scale = 2 if dtype.startswith("float") else 1
    x_np = ((base % 7 + 1) / scale).astype(dtype)  # 0.5 … 3.5 (ints: 1 … 7)
    y_np = ((base % 5 - 2) / scale).astype(dtype)  # -1 … 1 (ints: -2 … 2)
    for name, (numpy_code, ops_code) in cases.items():
        try:
            want = Tensor(eval(numpy_code, {"np": np, "x": x_np, "y": y_np})).asnumpy()
            got = eval(ops_code, {"ops": ops, "x": Tensor(x_np), "y": Tensor(y_np)}).asnumpy()
        except Exception as error:  # an op MindSpore does not run on this dtype: not equal
            result.setdefault(name, {})[dtype] = [False, False, f"{type(error).__name__}: {error}"[:200]]
            continue
        tol = 1e-3 if want.dtype == np.float16 or got.dtype == np.float16 else 1e-5
        same = want.shape == got.shape and np.allclose(
            want.astype(np.float64), got.astype(np.float64), rtol=tol, atol=tol, equal_nan=True)
        note = "" if same else f"numpy {want.dtype}{list(want.shape)} vs ops {got.dtype}{list(got.shape)}"
        result.setdefault(name, {})[dtype] = [bool(same), str(want.dtype) == str(got.dtype), note]
fails = []  # numpy applied to a Tensor itself, as GM103's originals do
for name, (numpy_code, _) in cases.items():
    try:
        eval(numpy_code, {"np": np, "x": Tensor(x_np), "y": Tensor(y_np)})
    except TypeError:
        fails.append(name)
result["<fails on tensors>"] = fails
print(json.dumps(result))
"""


def _rewrites() -> dict[str, tuple[str, str]]:
    """Each example as written and as graphmend rewrites `Tensor(<example>)` (GM103, unsafe fixes on)."""
    names = list(EXAMPLES)
    lines = "\n".join(f"        r{i} = Tensor({EXAMPLES[n]})" for i, n in enumerate(names))
    output = fix_source(_CELL.format(lines=lines), "table.py", unsafe=True, select=["GM103"]).output
    module = cst.parse_module(output)
    fixed = {}
    for statement in module.body[-1].body.body[0].body.body[2:]:  # the `r<i> = ...` lines
        assign = statement.body[0]
        index = int(assign.targets[0].target.value[1:])
        fixed[names[index]] = (EXAMPLES[names[index]], module.code_for_node(assign.value))
    return fixed


@pytest.fixture(scope="module")
def measured() -> dict[str, dict[str, list]]:
    cases = _rewrites()
    run = subprocess.run(
        [sys.executable, "-c", CHILD], input=json.dumps(cases), capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stderr[-2000:]
    return json.loads(run.stdout.strip().splitlines()[-1])


def test_every_entry_has_an_example_that_graphmend_rewrites_to_its_ops_function():
    assert set(EXAMPLES) == set(NUMPY_TO_OPS)
    for name, (_, fixed) in _rewrites().items():
        assert fixed.startswith(NUMPY_TO_OPS[name].ops.removeprefix("mindspore.")), (name, fixed)
        assert "np." not in fixed, (name, fixed)


@pytest.mark.parametrize("name", sorted(NUMPY_TO_OPS))
def test_the_table_says_what_mindspore_measured(measured, name):
    twin = NUMPY_TO_OPS[name]
    facts = measured[name]
    equal = {d for d in MEASURED_DTYPES if facts[d][0] and facts[d][1]}
    values = {d for d in MEASURED_DTYPES if facts[d][0]}
    assert (twin.equal_on, twin.values_on) == (equal, values), facts


def test_numpy_reductions_on_a_tensor_fail_even_in_pynative(measured):
    assert set(measured["<fails on tensors>"]) == FAILS_ON_TENSORS
