from __future__ import annotations

import libcst as cst
import libcst.matchers as m

from codemods.names import NUMPY_DTYPES
from codemods.numpy_calls import NUMPY_CONSTRUCTORS
from codemods.rule import Rule
from codemods.targets import EXPORT, STRICT, breaks

# numpy functions whose graph-native twin has another name; the rest are spelled `ops.<same name>`
_OPS_NAME = {
    "concatenate": "concat", "power": "pow", "absolute": "abs", "clip": "clamp", "amax": "amax",
    "amin": "amin", "transpose": "transpose", "array": "stack", "asarray": "stack", "dot": "matmul",
    "mean": "mean", "sum": "sum", "prod": "prod", "max": "amax", "min": "amin", "expand_dims": "expand_dims",
}  # fmt: skip
_NOT_COMPUTATION = {"finfo", "iinfo", "dtype", "result_type", "can_cast", "promote_types", "issubdtype"}


class NumpyCall(Rule):
    """Host numpy functions applied to tensors in graph code (`np.sqrt(x)`, `np.concatenate([a, b])`).

    What it does:
        Reports calls of host numpy (`np.*`, however imported; never `mindspore.numpy`) inside `construct`
        and other graph code when an argument is a tensor, and names the `ops` function to use instead.
        numpy constructors and `np.random` have their own rules (GM101, GM102). numpy on Python constants
        and on shapes (`np.sqrt(self.dim)`, `np.prod(x.shape[1:])`) is not reported: GRAPH_MODE folds it at
        compile time, and it compiled in every configuration measured, a dynamic batch included.

    Why it breaks graph mode:
        numpy cannot run inside a compiled graph; it needs the tensor's values on the host. LAX syntax runs
        the call through the Python fallback, but STRICT syntax and MindIR export reject it: "the inputs
        should be constant, but found variable" (measured: `Tensor(np.sqrt(x), ms.float32)`).

    Example:
        y = Tensor(np.sqrt(x), ms.float32)
        # becomes, by hand
        y = ops.sqrt(x)

    Fix safety:
        No fix: numpy's results are numpy arrays with numpy's type promotion (float64 from integer inputs),
        and the code around the call usually has to change with it.
    """

    CODE = "GM103"
    NAME = "numpy-call"
    BREAKS = breaks(STRICT, EXPORT, note="LAX runs it through the Python fallback")
    FIX = "none"

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._handled: set[int] = set()

    def visit_Call(self, node: cst.Call) -> None:
        if id(node) in self._handled:
            return
        name = self._numpy_function(node)
        if name is None:
            return
        tensor = self._tensor_argument(node)
        if tensor is None:
            return
        self._handled.update(id(c) for c in m.findall(node, m.Call()))
        alternative = f"`ops.{_OPS_NAME.get(name, name)}`" if name.isidentifier() else "an `ops` function"
        self.report(
            node,
            f"host numpy `{self.ctx.code(node.func)}` in {self.ctx.where()} is applied to the tensor "
            f"`{self.ctx.code(tensor)}`: LAX runs it through the Python fallback, but STRICT syntax and MindIR "
            f'export reject it ("the inputs should be constant"); use {alternative} (by hand: numpy returns '
            "an array with numpy's dtypes)",
        )

    def _numpy_function(self, node: cst.Call) -> str | None:
        func = node.func
        while isinstance(func, cst.Attribute):
            func = func.value
        if not isinstance(func, cst.Name):
            return None  # a method of a result: `np.sqrt(x).sum()` is reported at `np.sqrt`
        for qualified in self.ctx.names(node.func):
            if not qualified.startswith("numpy."):
                continue
            name = qualified.removeprefix("numpy.")
            skip = name in NUMPY_CONSTRUCTORS or name in NUMPY_DTYPES or name in _NOT_COMPUTATION
            if skip or name.startswith("random.") or "." in name:
                return None
            return name
        return None

    def _tensor_argument(self, node: cst.Call) -> cst.BaseExpression | None:
        """The first argument (or part of one) that is a tensor; shapes (`x.shape[1:]`) are not."""
        for arg in node.args:
            found = self._find_tensor(arg.value)
            if found is not None:
                return found
        return None

    def _find_tensor(self, node: cst.CSTNode) -> cst.BaseExpression | None:
        if isinstance(node, cst.BaseExpression):
            if self.values.is_shape(node):
                return None
            if self.values.is_tensor(node):
                return node
        if isinstance(node, cst.Attribute):
            return None  # `x.dtype`, `x.ndim`: metadata of a tensor, not the tensor
        children = node.args if isinstance(node, cst.Call) else node.children  # `x.numel()` is an int
        for child in children:
            found = self._find_tensor(child)
            if found is not None:
                return found
        return None
