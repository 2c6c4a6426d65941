from __future__ import annotations

import libcst as cst

from graphmend.calls import method_call
from graphmend.messages import explains
from graphmend.rule import Rule
from graphmend.rules._torch_table import TORCH_DTYPES, torch_name
from graphmend.targets import DYNAMIC, EXPORT, GRAPH, STRICT, breaks
from graphmend.values import Caution

DEVICE, DTYPE = "device", "dtype"
_HARMLESS = ("non_blocking", "copy")  # keywords of `.to` that change no value


class DeviceMove(Rule):
    """`.to(device)`, `.cuda()`, `.cpu()` dropped (a PyTorch leftover); `.to(device, dtype)` → `.to(dtype)`.

    What it does:
        Finds device moves of a value that may be a tensor in graph code and removes them:
        `x.to("cuda")`, `x.to(self.device)`, `x.to(logits.device)`, `x.to(device=d)`, `x.cuda()`,
        `x.cpu()`. `x.to(device, ms.int32)` keeps the cast: `x.to(ms.int32)`. A `.to(dtype)` cast runs in
        every mode and is left alone. An argument that is neither a device nor a dtype by its looks
        (a string, `device`, `*.device` / a MindSpore dtype, `dtype`, `*.dtype`) is reported.

    Why it breaks graph mode:
        MindSpore places tensors by context, not per tensor. `Tensor.to` with a device fails in
        GRAPH_MODE (LAX, STRICT, dynamic); torch's device names fail in PyNative too ("Failed to
        convert the value "cuda" of input 'device' of 'to' to enum"), and `Tensor` has no `cuda`/`cpu`
        methods at all ("'Tensor' object has no attribute 'cpu'", in every mode; measured).
        MindSpore's own `x.to("CPU")` is a real PyNative move: it is reported, not dropped, and left
        alone inside an `if ...pynative...:` branch (mindformers keeps one beside `ops.move_to`).

    Example:
        loss = loss_fct(logits, labels.to(logits.device))
        # becomes
        loss = loss_fct(logits, labels)

    Fix safety:
        Safe: a device move returns the same values, and the graph has no devices to move between.
        Arguments that cannot be told apart, and MindSpore device names, are reported without a fix.
    """

    CODE = "GM508"
    NAME = "device-move"
    BREAKS = breaks(
        GRAPH, STRICT, DYNAMIC, EXPORT, pynative=True, note='`.cuda()`, `.cpu()`, `.to("cuda")` fail in PyNative too'
    )
    EXPLAINS = (
        explains(r"""Failed to convert the value "[^"]*" of input 'device' of 'ToDevice' to enum""", GRAPH, DYNAMIC),
        explains(r"In JIT strict mode, cannot get attributes device or the Tensor", STRICT, EXPORT),
    )

    def visit_Call(self, node: cst.Call) -> None:
        receiver = method_call(node, "to", "cuda", "cpu")
        if receiver is None or not self.values.is_tensor(receiver, Caution.POSSIBLE):
            return
        method = node.func.attr.value  # type: ignore[attr-defined]
        where = f"`{self.ctx.code(node)}` in {self.ctx.where()}"
        if method != "to":
            if self._pynative_only(node):
                return
            message = f"{where}: MindSpore tensors have no `.{method}()` (it fails in every mode); drop it"
            self.report(node, message, receiver)
            return
        device = self._device_argument(node)
        if device is None or self._pynative_only(node):
            return
        if device == "unknown":
            self.report(
                node,
                f"{where}: the argument is not a tensor; if it is a device, drop the call (it fails in "
                "GRAPH_MODE); a dtype (`.to(ms.float16)`) runs in every mode",
            )
            return
        if _mindspore_device(device.value):
            self.report(
                node,
                f"{where}: MindSpore's `Tensor.to(device)` runs in PyNative only (it fails in GRAPH_MODE); "
                "in graph code move it with `ops.move_to` (Ascend) or drop it",
            )
            return
        kept = [a for a in node.args if a is not device]
        message = f"{where} moves a tensor to a device: it fails in GRAPH_MODE, and MindSpore places tensors by context"
        if all(a.keyword is not None and a.keyword.value in _HARMLESS for a in kept):
            self.report(node, message + "; drop it", receiver)
        else:
            last = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
            self.report(node, message + "; keep the cast only", node.with_changes(args=[*kept[:-1], last]))

    def _device_argument(self, node: cst.Call) -> cst.Arg | str | None:
        """The argument naming a device; "unknown" when the one positional argument may be either; None."""
        for a in node.args:
            if a.keyword is not None and a.keyword.value == "device":
                return a
        positional = [a for a in node.args if a.keyword is None and not a.star]
        if not positional:
            return None
        kind = self._kind(positional[0].value)
        if kind == DEVICE:
            return positional[0]
        # `.to(other)` casts to other's dtype and runs in every mode: only a non-tensor is in doubt
        in_doubt = (
            kind is None and len(positional) == 1 and not self.values.is_tensor(positional[0].value, Caution.POSSIBLE)
        )
        return "unknown" if in_doubt else None

    def _pynative_only(self, node: cst.CSTNode) -> bool:
        """Inside `if ...pynative...:` (mindformers moves tensors there, and `ops.move_to` in graph mode)."""
        child, parent = node, self.ctx.parents.get(node)
        while parent is not None and parent is not self.ctx.current.node:  # type: ignore[union-attr]
            if isinstance(parent, cst.If) and child is parent.body and "pynative" in self.ctx.code(parent.test).lower():
                return True
            child, parent = parent, self.ctx.parents.get(parent)
        return False

    def _kind(self, value: cst.BaseExpression) -> str | None:
        """DEVICE, DTYPE, or None (cannot tell) from how the argument looks."""
        if isinstance(value, cst.SimpleString | cst.FormattedString | cst.ConcatenatedString):
            return DEVICE
        if isinstance(value, cst.BinaryOperation):
            strings = (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString)
            return DEVICE if isinstance(value.left, strings) or isinstance(value.right, strings) else None
        if (
            any(n.startswith("mindspore.") for n in self.ctx.names(value))
            or torch_name(self.ctx, value) in TORCH_DTYPES
        ):
            return DTYPE  # `ms.float16`, `mindspore.long`: MindSpore has no device objects
        if isinstance(value, cst.Call):
            if torch_name(self.ctx, value.func) == "torch.device":
                return DEVICE
            value = value.func  # `self.visual.get_dtype()`: named by its function
        label = _label(value).lower()
        if "dtype" in label or label.endswith("type"):
            return DTYPE
        if label in ("device", "dev") or label.endswith(("_device", "_dev")):
            return DEVICE
        return None


def _label(value: cst.BaseExpression) -> str:
    """The last name of `a.b.c` or `c`; "" for anything else."""
    if isinstance(value, cst.Attribute):
        return value.attr.value
    return value.value if isinstance(value, cst.Name) else ""


def _mindspore_device(value: cst.BaseExpression) -> bool:
    """ "CPU", "GPU", "Ascend" (MindSpore's spelling, maybe with ":n"): a deliberate MindSpore placement."""
    if not isinstance(value, cst.SimpleString):
        return False
    return str(value.evaluated_value).split(":")[0] in ("CPU", "GPU", "Ascend")
