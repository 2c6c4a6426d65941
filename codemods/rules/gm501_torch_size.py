import libcst as cst

from graphmend.calls import method_call
from graphmend.messages import explains
from graphmend.rule import Rule
from graphmend.targets import DYNAMIC, EXPORT, GRAPH, STRICT, breaks
from graphmend.values import Caution


class TorchSize(Rule):
    """`x.size(i)` → `x.shape[i]`, `x.size()` → `x.shape` (a PyTorch leftover).

    What it does:
        Finds `x.size()`, `x.size(i)` and `x.size(dim=i)` in graph code, where `x` may be a tensor, and
        rewrites them to `x.shape` and `x.shape[i]`.

    Why it breaks graph mode:
        In MindSpore `Tensor.size` is a property, the number of elements (torch's `numel()`), so calling
        it fails everywhere: PyNative raises "'int' object is not callable", GRAPH_MODE "The object is
        not callable". A half-done port does not run at all until it is rewritten.

    Example:
        batch = hidden_states.size(0)
        # becomes
        batch = hidden_states.shape[0]

    Fix safety:
        Safe: `x.shape[i]` is what torch's `x.size(i)` returns, and the original cannot run. A receiver
        known not to be a tensor (a Cell attribute, a list, a module) is left alone; other argument
        forms are reported without a fix.
    """

    CODE = "GM501"
    NAME = "torch-size"
    BREAKS = breaks(GRAPH, STRICT, DYNAMIC, EXPORT, pynative=True)
    EXPLAINS = (explains(r"The object is not callable\. Please check code\.", GRAPH, STRICT, DYNAMIC, EXPORT),)

    def visit_Call(self, node: cst.Call) -> None:
        receiver = method_call(node, "size")
        if receiver is None or not self.values.is_tensor(receiver, Caution.POSSIBLE):
            return
        message = (
            f"`{self.ctx.code(node)}` in {self.ctx.where()} calls `Tensor.size`, an int property in "
            "MindSpore (the element count): it fails even in PyNative"
        )
        shape = cst.Attribute(receiver, cst.Name("shape"))
        args = node.args
        if not args:
            replacement: cst.BaseExpression = shape
        elif len(args) == 1 and not args[0].star and (args[0].keyword is None or args[0].keyword.value == "dim"):
            replacement = cst.Subscript(shape, [cst.SubscriptElement(cst.Index(args[0].value))])
        else:
            self.report(node, f"{message}; use `.shape` (unexpected arguments: rewrite by hand)")
            return
        self.report(node, f"{message}; use `{self.ctx.code(replacement)}`", replacement)
