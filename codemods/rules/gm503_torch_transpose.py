import libcst as cst

from graphmend.builders import arg, call
from graphmend.calls import method_call
from graphmend.messages import explains
from graphmend.rule import Rule
from graphmend.targets import DYNAMIC, EXPORT, GRAPH, STRICT, breaks
from graphmend.values import Caution


class TorchTranspose(Rule):
    """Two-axis `x.transpose(a, b)` → `ops.swapaxes(x, a, b)` (torch's swap, not a permutation).

    What it does:
        Finds `x.transpose(a, b)` (and `x.transpose(dim0=a, dim1=b)`) in graph code, where `x` may be a
        tensor, and rewrites it to `ops.swapaxes(x, a, b)`. A full permutation (`x.transpose(0, 2, 1)`,
        `x.transpose((0, 2, 1))`) and `x.transpose()` mean the same in every mode and are left alone.

    Why it breaks graph mode:
        `Tensor.transpose` has two overloads that the modes pick differently: PyNative swaps the two
        axes like torch, GRAPH_MODE takes the arguments as a whole permutation. On a tensor of more than
        two dimensions GRAPH_MODE fails ("the number of axes must be equal to the dimension of Tensor");
        on a 2-D tensor `x.transpose(0, 1)` compiles and silently returns `x` unchanged, where PyNative
        returns its transpose (measured).

    Example:
        attn = ops.matmul(q, k.transpose(-1, -2))
        # becomes
        attn = ops.matmul(q, ops.swapaxes(k, -1, -2))

    Fix safety:
        Safe: `ops.swapaxes` is PyNative's meaning of the call, in every mode. A receiver known not to
        be a tensor (a numpy array, a list) is left alone.
    """

    CODE = "GM503"
    NAME = "torch-transpose"
    BREAKS = breaks(
        GRAPH, STRICT, DYNAMIC, EXPORT, silent=True, note="fails from 3-D up; silently wrong on 2-D tensors"
    )
    EXPLAINS = (
        explains(
            r"For Tensor\.transpose, the number of axes must be equal to the dimension of Tensor",
            GRAPH,
            STRICT,
            DYNAMIC,
            EXPORT,
        ),
    )

    def visit_Call(self, node: cst.Call) -> None:
        receiver = method_call(node, "transpose")
        axes = _two_axes(node)
        if receiver is None or axes is None or not self.values.is_tensor(receiver, Caution.POSSIBLE):
            return
        swapaxes, needed = self.ctx.bindings.reference("mindspore.ops.swapaxes")
        message = (
            f"`{self.ctx.code(node)}` in {self.ctx.where()} swaps two axes in PyNative but is a whole "
            "permutation in GRAPH_MODE (it fails from 3-D up; on 2-D, `(0, 1)` silently does nothing); "
            "use `ops.swapaxes`"
        )
        replacement = call(swapaxes, [arg(receiver), arg(axes[0]), arg(axes[1])])
        self.report(node, message, replacement, "safe", (needed,))


def _two_axes(node: cst.Call) -> tuple[cst.BaseExpression, cst.BaseExpression] | None:
    """(a, b) of `transpose(a, b)` or `transpose(dim0=a, dim1=b)`; None for any other form."""
    args = node.args
    if len(args) != 2 or any(a.star for a in args):
        return None
    if all(a.keyword is None for a in args):
        return args[0].value, args[1].value
    keywords = {a.keyword.value: a.value for a in args if a.keyword}
    if set(keywords) == {"dim0", "dim1"}:
        return keywords["dim0"], keywords["dim1"]
    return None
