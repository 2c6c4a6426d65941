from __future__ import annotations

import libcst as cst

from graphmend.messages import explains
from graphmend.names import numpy_dtype_name
from graphmend.numpy_calls import argument
from graphmend.rule import Rule
from graphmend.targets import DYNAMIC, EXPORT, GRAPH, STRICT, breaks
from graphmend.vocabulary import TENSOR_CONSTRUCTORS

# ops function → the position of its dtype argument when it is passed positionally
_POSITIONAL_DTYPE = {"cast": 1, "ones": 1, "zeros": 1, "eye": 2, "Tensor": 1, "tensor": 1}
_MINDSPORE_NAME = {"bool": "bool_"}  # numpy's name → MindSpore's where they differ


class NumpyDtype(Rule):
    """A numpy dtype (`np.float32`) given to a MindSpore op in graph code → the MindSpore dtype.

    What it does:
        Finds a numpy dtype object passed as the dtype of an `ops`/`mint` function or of `Tensor(...)` inside
        `construct` (and other graph code): `dtype=np.float32` to any of them, or positionally to
        `ops.cast(x, np.float16)`, `ops.ones/zeros(shape, np.float32)`, `ops.eye(n, m, np.float32)`,
        `Tensor(data, np.float32)`; and rewrites it to the MindSpore dtype of the same name (`ms.float32`).
        Such code is often left over from a numpy → `ops` port (by hand, or around a rewrite). Left alone:
        `t.astype(np.float32)` (MindSpore converts the dtype there: measured), the string `"float32"` and
        `float`, and `mindspore.numpy`, which takes numpy dtypes by design.

    Why it breaks graph mode:
        The ops check their dtype argument. Measured on MindSpore 2.10 (CPU): `ops.cast(x, np.float16)`
        and `ops.ones(shape, np.float16)` fail in PyNative ("For 'Cast', the input 'dtype' should be
        mindspore dtype, but got <class 'numpy.float16'>") and in GRAPH, STRICT and a dynamic batch
        ("the input 'dtype' expect a type, but got AbstractScalar(Type: TypeType, Value: class
        'numpy.float16'…)"), while `x.astype(np.float16)` passes all four. In PyNative `ops.zeros`, `ops.eye`,
        `ops.arange(dtype=)`, `ops.full(dtype=)`, `ops.ones_like(dtype=)`, `mint.zeros(dtype=)` and
        `Tensor([1, 2], np.float32)` ("For 'Tensor', the 'dtype' should be one of [mindspore.int8, …")
        fail the same way.

    Example:
        y = ops.cast(x, np.float16)
        # becomes
        y = ops.cast(x, ms.float16)

    Fix safety:
        Safe: the MindSpore dtype of the same name is the dtype the code asked for (`np.bool_` →
        `ms.bool_`); the original does not run at all.
    """

    CODE = "GM107"
    NAME = "numpy-dtype"
    BREAKS = breaks(
        GRAPH, STRICT, DYNAMIC, EXPORT, pynative=True, note="MindSpore ops reject numpy dtypes, in PyNative too"
    )
    EXPLAINS = (
        explains(
            r"the input 'dtype' expect a type, but got AbstractScalar\(Type: TypeType, Value: class "
            r"'numpy\.",
            GRAPH,
            STRICT,
            DYNAMIC,
            EXPORT,
        ),
    )
    FIX = "safe"

    def visit_Call(self, node: cst.Call) -> None:
        op = self._op(node)
        if op is None:
            return
        dtype = argument(node, _POSITIONAL_DTYPE.get(op, -1), "dtype")
        name = self._numpy_dtype(dtype) if dtype is not None else None
        if name is None:
            return
        replacement, needed = self.ctx.bindings.reference(f"mindspore.{_MINDSPORE_NAME.get(name, name)}")
        message = (
            f"the numpy dtype `{self.ctx.code(dtype)}` given to `{self.ctx.code(node.func)}` in {self.ctx.where()}: "
            "MindSpore ops take MindSpore dtypes and reject it in every mode (\"the input 'dtype' should be "
            f'mindspore dtype"); use `{self.ctx.code(replacement)}`'
        )
        self.report(dtype, message, replacement, "safe", (needed,))

    def _op(self, node: cst.Call) -> str | None:
        """The function's name for `mindspore.ops`, `mindspore.mint` and `Tensor` (not `mindspore.numpy`)."""
        for name in self.ctx.names(node.func):
            module, _, short = name.rpartition(".")
            if module.startswith(("mindspore.ops", "mindspore.mint")) or name in TENSOR_CONSTRUCTORS:
                return short
        return None

    def _numpy_dtype(self, node: cst.BaseExpression) -> str | None:
        if not any(n.startswith("numpy.") for n in self.ctx.names(node)):
            return None  # "float32" and `float` are not numpy objects
        return numpy_dtype_name(self.ctx.qualified, node)
