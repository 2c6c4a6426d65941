import libcst as cst

from graphmend.builders import arg, call
from graphmend.calls import method_call
from graphmend.messages import explains
from graphmend.rule import Rule
from graphmend.rules._torch_table import sized_call
from graphmend.targets import DYNAMIC, EXPORT, GRAPH, STRICT, breaks
from graphmend.values import Caution


class TorchRepeat(Rule):
    """`x.repeat(a, b)` → `ops.tile(x, (a, b))` (torch's repeat is a tile).

    What it does:
        Finds `x.repeat(...)` with positional sizes in graph code, where `x` may be a tensor, and
        rewrites it to `ops.tile(x, sizes)`: the sizes as separate arguments, as one tuple or list, or as
        `y.shape`. `x.repeat(2, axis=1)` (numpy's element repeat) and `repeat_interleave` are left alone.

    Why it breaks graph mode:
        `Tensor.repeat(*repeats)` has a kernel on Ascend only: on CPU it fails in PyNative ("'repeat' is
        not supported on this device") and in every graph configuration ("Kernel select
        failed"). `ops.tile` computes the same (torch's `repeat` is numpy's `tile`) on every backend.

    Example:
        img_sizes = img_sizes.unsqueeze(0).repeat(batch_size, 1)
        # becomes
        img_sizes = ops.tile(img_sizes.unsqueeze(0), (batch_size, 1))

    Fix safety:
        Safe with three sizes or more, or a shape: MindSpore 2.10 implements `Tensor.repeat` as `F.tile`
        (`graph/_parse/standard_method.py`), so the values are the same on every backend. Unsafe with one
        or two plain sizes: MindSpore 1.x's `x.repeat(k, axis)` was numpy's element repeat (now
        `ops.repeat_interleave(x, k, axis)`), and mindaudio's `block2.repeat(self.factor, 2)` still means
        that; besides, `repeat` raises when it gets fewer sizes than the tensor has dimensions, where
        `ops.tile` prepends ones. One argument that is neither a literal nor a shape (`w.repeat(n)`: one
        int, or a tuple?) is reported without a fix. A count followed by a literal axis of 2 or more
        (`block2.repeat(self.factor, 2)`, mindaudio's WaveGrad) is how MindSpore 1.x code spelled an
        element repeat along an axis: in bench/realcells the tile fix turned that Cell into one that ran
        with other shapes (its next Conv1d got twice the channels), so its unsafe fix is
        `ops.repeat_interleave(x, k, 2)`, and the message names the tile for the torch reading. Of the
        corpus's 26 calls `x.repeat(<count>, <int literal>)` (GM507's findings on the six packages, read
        with `ast`), only those two have 2 or more there; 23 are torch's `repeat(n, 1)`, and one is
        mindaudio's LengthRegulator, `repeat(<list>, 0)`. A literal 0 there has one reading: as torch's
        tile it would repeat zero times (an empty tensor, which no one writes), so it is 1.x's element
        repeat along axis 0 too, fixed the same way (measured: `ops.repeat_interleave(x, [1, 2, 0], 0)`
        runs in PyNative on CPU where `x.repeat(...)` has no kernel; tests/verify_rules/torch_port's
        ElementRepeat passes GRAPH, STRICT and a dynamic batch after it). Unsafe because 2.10's
        `Tensor.repeat` means the tile: the fix takes the 1.x meaning the code was written for. Safe where
        the value model knows the tensor has 3 or more dimensions and the axis is one of them (`Values.rank`:
        the output of an `nn.ConvNd` layer, or an input a top-level line before passed to one; MindSpore
        2.10's ConvNd layers take and give only N+2 dimensions, measured in tests/test_values_rank.py): a
        tile of two sizes raises on such a tensor in 2.10 and in torch alike, so the element repeat is the
        only meaning in which the line runs (WaveGrad's UBlock, bench/realcells).
    """

    CODE = "GM507"
    NAME = "torch-repeat"
    BREAKS = breaks(GRAPH, STRICT, DYNAMIC, EXPORT, pynative=True, note="CPU and GPU: the kernel is Ascend-only")
    # the second: 1.x's `x.repeat(k, axis)` that 2.10 reads as a tile with too few sizes (bench/realcells:
    # WaveGrad's UBlock, every mode); the hostile Cell of docs/evidence.md raises the first
    EXPLAINS = (
        explains(
            r"Unsupported op \[Repeat\] on CPU|For repeat, number of items of repeats can not be smaller than the "
            r"number of dimensions of self tensor",
            GRAPH,
            STRICT,
            DYNAMIC,
            EXPORT,
        ),
    )
    FIX = "safe/unsafe"

    def visit_Call(self, node: cst.Call) -> None:
        receiver = method_call(node, "repeat")
        if receiver is None or any(a.keyword is not None for a in node.args):
            return  # `x.repeat(2, axis=1)`: numpy's repeat, another meaning
        if not self.values.is_tensor(receiver, Caution.POSSIBLE):
            return
        message = (
            f"`{self.ctx.code(node)}` in {self.ctx.where()}: `Tensor.repeat` has an Ascend kernel only "
            "(it fails on CPU even in PyNative); use `ops.tile(x, sizes)`"
        )
        if _count_then_axis_zero(node) or _count_then_axis(node):
            self._element_repeat(node, receiver, message.rsplit("; use", 1)[0])
            return
        fixed = sized_call(self, node, receiver, "mindspore.ops.tile", message)
        if fixed is None:
            return
        replacement, needed, shape = fixed
        if isinstance(shape, cst.Tuple) and len(shape.elements) <= 2:
            message += (
                "; check the meaning: in MindSpore 1.x `x.repeat(k, axis)` repeated elements "
                "(`ops.repeat_interleave`), and `repeat` raises on fewer sizes than dimensions where `ops.tile` "
                "does not"
            )
            self.report(node, message, replacement, "unsafe", (needed,))
        else:
            self.report(node, message + ", the same values everywhere", replacement, "safe", (needed,))

    def _element_repeat(self, node: cst.Call, receiver: cst.BaseExpression, message: str) -> None:
        """`x.repeat(counts, axis)` as MindSpore 1.x meant it: `ops.repeat_interleave(x, counts, axis)`, unsafe."""
        count, axis = (a.value for a in node.args)
        func, needed = self.ctx.bindings.reference("mindspore.ops.repeat_interleave")
        replacement = call(func, [arg(receiver), arg(count), arg(axis)])
        x, k, n = self.ctx.code(receiver), self.ctx.code(count), self.ctx.code(axis)
        if n == "0":
            why = f"; `{k}, 0` is MindSpore 1.x's element repeat along axis 0 (torch's tile would repeat zero times)"
        else:
            why = f"; `{k}, {n}` is how MindSpore 1.x code spelled an element repeat along axis {n}"
        why += f": use `ops.repeat_interleave({x}, {k}, {n})`, which 2.10 runs (measured on CPU)"
        rank = self.values.rank(receiver) if n != "0" else None
        if rank is not None and rank > 2 and int(n, 0) < rank:
            # a tile of two sizes raises on 3 or more dimensions (2.10 and torch alike): 1.x's meaning is the
            # only one in which the line runs
            why += (
                f"; `{x}` has {rank} dimensions here (a convolution layer's output, or its input), on which a tile "
                "of two sizes raises in 2.10 and in torch: the element repeat is the only reading that runs"
            )
            self.report(node, message + why, replacement, "safe", (needed,))
            return
        if n != "0":
            why += f"; if this is torch's tile instead, use `ops.tile({x}, ({k}, {n}))`"
        self.report(node, message + why, replacement, "unsafe", (needed,))


def _count_then_axis_zero(node: cst.Call) -> bool:
    """`x.repeat(counts, 0)`: a tile of zero copies along the last axis in torch's reading, which no one
    writes; MindSpore 1.x's element repeat along axis 0."""
    if len(node.args) != 2:
        return False
    axis = node.args[1].value
    return isinstance(axis, cst.Integer) and int(axis.value, 0) == 0


def _count_then_axis(node: cst.Call) -> bool:
    """`x.repeat(k, 2)`: a count that is not a literal, then a literal int of 2 or more (an axis, in 1.x code)."""
    if len(node.args) != 2:
        return False
    count, axis = (a.value for a in node.args)
    return not isinstance(count, cst.Integer) and isinstance(axis, cst.Integer) and int(axis.value, 0) >= 2
