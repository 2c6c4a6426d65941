from __future__ import annotations

import libcst as cst

from graphmend.builders import arg, call
from graphmend.messages import explains
from graphmend.numpy_calls import bind
from graphmend.rule import Rule
from graphmend.targets import DYNAMIC, breaks

# `mindspore.numpy.arange(start, stop=None, step=None, dtype=None)` → `ops.arange(start=0, end=None, step=1, *,
# dtype=None)`: the keyword each parameter takes in `ops.arange`
_KEYWORDS = {"start": "start", "stop": "end", "step": "step", "dtype": "dtype"}
_ORDER = ("start", "stop", "step", "dtype")


class NumpyArangeDynamic(Rule):
    """`mindspore.numpy.arange` of a tensor's dimension in graph code → `ops.arange` with the same dtype.

    What it does:
        Finds `arange` of `mindspore.numpy` (however it is imported: `import mindspore.numpy as mnp`,
        `ms.numpy.arange`) inside `construct` and other graph code when its start, stop or step depends on a
        tensor's dimension (`bs, n, _ = x.shape; mnp.arange(bs)`), and rewrites it to `ops.arange` with the
        same arguments and the dtype `mindspore.numpy` gives: the one passed, else int32 when every bound is
        an int, float32 when one is a float (a literal, `float(...)`, a true division, arithmetic with
        them). `arange` of constants (`mnp.arange(self.dim)`) is left alone: it compiles everywhere. Host
        numpy's `arange` is GM101's.

    Why it breaks graph mode:
        `mindspore.numpy.arange` works out its length on the host while the graph compiles (`math.ceil` of
        `(stop - start) / step`), so its bounds must be constants. With a dynamic batch the batch size has
        no value then: compiling fails with "TypeError: must be real number, not NoneType" (measured on
        MindSpore 2.10, tests/verify_rules/shapes_flow/gm306_numpy_arange_dynamic.py: PyNative, GRAPH,
        STRICT and export pass, the dynamic batch fails; mindyolo's and mindocr's YOLOv8
        `TaskAlignedAssigner` in bench/realcells fail the same way). `ops.arange` is an op of the graph and
        takes a dynamic bound.

    Example:
        bs, n_gt, _ = gt_labels.shape
        ind0 = ops.tile(mnp.arange(bs, dtype=ms.int32).view(-1, 1), (1, n_gt))
        # becomes
        ind0 = ops.tile(ops.arange(bs, dtype=ms.int32).view(-1, 1), (1, n_gt))

    Fix safety:
        Safe when the dtype is known: the same integers or floats (`ops.arange` counts from `start` by
        `step` below `end` as `mindspore.numpy` does) and the same dtype, which the fix writes out because
        `ops.arange` of ints gives int64 where `mindspore.numpy` gives int32 (measured). Unsafe when a bound
        may be a float that graphmend cannot see: the fix writes int32, and `mindspore.numpy` would have
        given float32.
    """

    CODE = "GM306"
    NAME = "numpy-arange-dynamic"
    BREAKS = breaks(DYNAMIC, note="mindspore.numpy.arange of a dynamic dimension")
    EXPLAINS = (explains(r"must be real number, not NoneType", DYNAMIC),)
    FIX = "safe/unsafe"

    def visit_Call(self, node: cst.Call) -> None:
        if "mindspore.numpy.arange" not in self.ctx.names(node.func):
            return
        given, why = bind(node, _ORDER)
        if why or "start" not in given:
            return
        dims = [d for name in ("start", "stop", "step") if name in given for d in self.values.dims(given[name])]
        if not dims:
            return
        func, needed = self.ctx.bindings.reference("mindspore.ops.arange")
        imports = [needed]
        dtype, unsure = given.get("dtype"), None
        if dtype is None:
            bounds = [given[name] for name in ("start", "stop", "step") if name in given]
            floats = any(self._float(b) for b in bounds)
            unsure = next((b for b in bounds if not floats and not self.values.is_int(b)), None)
            dtype, needed = self.ctx.bindings.reference("mindspore.float32" if floats else "mindspore.int32")
            imports.append(needed)
        named = {a.keyword.value for a in node.args if a.keyword is not None}
        bounds = [name for name in ("start", "stop", "step") if name in given]
        args = [arg(given[name]) for name in bounds if name not in named]
        args += [arg(given[name], _KEYWORDS[name]) for name in bounds if name in named]
        replacement = call(func, [*args, arg(dtype, "dtype")]).with_changes(lpar=node.lpar, rpar=node.rpar)
        dim = next((d for d in dims if d.index == 0), dims[0])
        message = (
            f"`{self.ctx.code(node)}` in {self.ctx.where()} counts to {dim.described()}: `mindspore.numpy.arange` "
            "works its length out while the graph compiles, so "
            + ("a dynamic batch fails" if dim.index == 0 else "it fails if that dimension is dynamic")
            + ' ("must be real number, not NoneType"); `ops.arange` is a graph op'
        )
        if unsure is not None:
            message += (
                f" (unsafe: the fix writes int32, as `mindspore.numpy` gives for ints, and `{self.ctx.code(unsure)}` "
                "may be a float, which gives float32)"
            )
        self.report(node, message, replacement, "unsafe" if unsure is not None else "safe", tuple(imports))

    def _float(self, node: cst.BaseExpression) -> bool:
        """A Python float for certain: a float literal, the builtin `float(...)`, or arithmetic with one of them
        or a true division (a shape dimension is an int, so `n * 0.5` and `n / 2` are floats)."""
        if isinstance(node, cst.Float):
            return True
        if isinstance(node, cst.Call):
            return self.values.is_builtin(node.func, ("float",))
        if isinstance(node, cst.UnaryOperation):
            return self._float(node.expression)
        if isinstance(node, cst.BinaryOperation):
            return isinstance(node.operator, cst.Divide) or self._float(node.left) or self._float(node.right)
        return False
