import libcst as cst

from graphmend.calls import method_call
from graphmend.messages import explains
from graphmend.rule import Rule
from graphmend.rules._torch_table import sized_call
from graphmend.targets import DYNAMIC, EXPORT, GRAPH, STRICT, breaks
from graphmend.values import Caution


class TorchExpand(Rule):
    """`x.expand(a, b, c)` → `ops.broadcast_to(x, (a, b, c))` (a PyTorch leftover).

    What it does:
        Finds `x.expand(...)` in graph code, where `x` may be a tensor, and rewrites it to
        `ops.broadcast_to(x, sizes)`: the sizes as separate arguments, as one tuple or list, or as
        `y.shape`. `-1` (keep this dimension) means the same to `ops.broadcast_to`. `x.expand_as(y)`
        works in every mode and is left alone.

    Why it breaks graph mode:
        PyNative accepts torch's `expand`, GRAPH_MODE does not: "The parameters number of the function
        is 2, but the number of provided arguments is 5" for separate sizes, and "The method
        'GetShapeVector()' doesn't implement" for a tuple (measured in LAX, STRICT and with a dynamic
        batch).

    Example:
        cls_tokens = self.cls_token.expand(batch_size, -1, -1)
        # becomes
        cls_tokens = ops.broadcast_to(self.cls_token, (batch_size, -1, -1))

    Fix safety:
        Safe: `ops.broadcast_to` computes what PyNative's `expand` does, in every mode. One argument
        that is neither a literal nor a shape (`x.expand(n)`: one int, or a tuple?) is reported without a
        fix, and so are keyword or star arguments.
    """

    CODE = "GM506"
    NAME = "torch-expand"
    BREAKS = breaks(GRAPH, STRICT, DYNAMIC, EXPORT, note="runs in PyNative only")
    EXPLAINS = (
        explains(
            r"The parameters number of the function is \d+, but the number of provided arguments is "
            r"\d+",
            GRAPH,
            STRICT,
            DYNAMIC,
            EXPORT,
        ),
        # `expand(shape)` of a tuple (mindnlp's SeamlessM4TSinusoidalPositionalEmbedding in
        # bench/realcells/results.json; by hand: `x.expand(x.shape)`, `expand((n, 3, 4))` alike)
        explains(r"The method 'GetShapeVector\(\)' doesn't implement", GRAPH, STRICT, DYNAMIC, EXPORT),
    )

    def visit_Call(self, node: cst.Call) -> None:
        receiver = method_call(node, "expand")
        if receiver is None or not self.values.is_tensor(receiver, Caution.POSSIBLE):
            return
        message = (
            f"`{self.ctx.code(node)}` in {self.ctx.where()}: `Tensor.expand` runs in PyNative only; "
            "use `ops.broadcast_to(x, sizes)`"
        )
        fixed = sized_call(self, node, receiver, "mindspore.ops.broadcast_to", message)
        if fixed is not None:
            replacement, needed, _ = fixed
            self.report(node, message, replacement, "safe", (needed,))
