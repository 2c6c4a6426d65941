import libcst as cst

from graphmend.builders import arg, call
from graphmend.calls import method_call
from graphmend.rule import Rule
from graphmend.targets import DYNAMIC, EXPORT, GRAPH, STRICT, breaks
from graphmend.values import Caution


class ArgmaxNoAxis(Rule):
    """No-argument `x.argmax()` → `ops.argmax(x)` (the index into the flattened tensor, in every mode).

    What it does:
        Finds `x.argmax()` without arguments in graph code, where `x` may be a tensor, and rewrites it
        to `ops.argmax(x)`, which flattens `x` and returns one Int64 index in every mode. `x.argmin()`
        gives the same in both modes and is left alone.

    Why it breaks graph mode:
        PyNative follows torch and flattens: a 0-d Int64 index. GRAPH_MODE (LAX, STRICT, dynamic)
        reduces the last axis instead: a (2, 3, 8) tensor of indices for a (2, 3, 8, 8) input
        (measured for float and int inputs). Code that goes on to use the index
        as a scalar fails, or silently computes with the wrong shape.

    Example:
        stop = each_seq_stop_token_index.argmax()
        # becomes
        stop = ops.argmax(each_seq_stop_token_index)

    Fix safety:
        Safe: `ops.argmax(x)` is PyNative's meaning of `x.argmax()` (0-d Int64, the same index) in
        PyNative, GRAPH_MODE, STRICT and with a dynamic batch. A receiver known not to be a tensor (a
        numpy array) is left alone.
    """

    CODE = "GM504"
    NAME = "argmax-no-axis"
    BREAKS = breaks(GRAPH, STRICT, DYNAMIC, EXPORT, silent=True, note="silently a different shape")

    def visit_Call(self, node: cst.Call) -> None:
        receiver = method_call(node, "argmax")
        if receiver is None or node.args or not self.values.is_tensor(receiver, Caution.POSSIBLE):
            return
        argmax, needed = self.ctx.bindings.reference("mindspore.ops.argmax")
        message = (
            f"`{self.ctx.code(node)}` in {self.ctx.where()} flattens in PyNative (one index) but reduces the "
            "last axis in GRAPH_MODE; use `ops.argmax(...)`, the flattened index in every mode"
        )
        self.report(node, message, call(argmax, [arg(receiver)]), "safe", (needed,))
