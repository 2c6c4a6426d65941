from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from graphmend.rule import Rule
from graphmend.targets import EXPORT, breaks
from graphmend.values import Dim


class ViewMinusOne(Rule):
    """`view`/`reshape` with an inferred `-1` dimension → an explicit `ops.flatten` (off by default).

    What it does:
        Finds `x.view(...)`, `x.reshape(...)`, `ops.reshape(x, ...)` and reshape primitives
        (`self.reshape = ops.Reshape()`) whose target shape contains `-1`. The flatten forms are rewritten:
        `x.view(-1)` → `ops.flatten(x, start_dim=0)`, and `x.view(x.shape[0], -1)` /
        `x.view(B, C, -1)` with `B, C` the leading dimensions of `x` itself → `ops.flatten(x, start_dim=k)`.
        Other uses of `-1` (`x.view(-1, 3)`, `x.view(n, -1)` with `n` not taken from `x`) are reported
        without a fix: write the size out.

        Off by default: enable it (`--select GM302`) when the model must run on an older MindSpore (2.0 or
        later: `ops.flatten` with `start_dim`) or go through MindIR / MindSpore Lite tooling that cannot
        infer `-1`, as seed article 002 recommends. `start_dim` is always written out: its default changes
        from 1 to 0 after MindSpore 2.9.

    Why it breaks graph mode:
        It does not in MindSpore 2.10: `-1` compiled and ran in every configuration measured, including a
        dynamic-batch MindIR. Older releases and some export pipelines fail to infer the
        shape of a `Reshape` with `-1` ("Failed to infer output shape of operator ... Reshape", seed 002).
        `ops.flatten` states the intent and needs no inference of a size.

    Example:
        return self.head(x.view(x.shape[0], -1))
        # becomes
        return self.head(ops.flatten(x, start_dim=1))

    Fix safety:
        `-1` alone: safe (`ops.flatten(x, start_dim=0)` equals `x.view(-1)`, 0-d tensors included).
        Leading dimensions kept: safe when `x` is known to have more than `k` dimensions (unpacked as
        `B, C, H, W = x.shape`); otherwise unsafe, because on a tensor of exactly `k` dimensions
        `x.view(x.shape[0], -1)` appends a dimension of 1 and `ops.flatten` does not (measured: a (3,)
        tensor gives (3, 1) and (3,)).
    """

    CODE = "GM302"
    NAME = "view-minus-one"
    BREAKS = breaks(
        together=(EXPORT,),
        note="nothing in MindSpore 2.10; older MindSpore and MindSpore Lite shape inference of a MindIR",
    )
    FIX = "safe/unsafe"
    DEFAULT = False

    def visit_Call(self, node: cst.Call) -> None:
        reshape = self._match(node)
        if reshape is None or not any(_is_minus_one(d) for d in reshape.dims):
            return
        if self.values.is_host_numpy(reshape.receiver):  # numpy's reshape(-1): GM103's business
            return
        problem = (
            f"`{self.ctx.code(node)}` in {self.ctx.where()} leaves a dimension to be inferred (`-1`): older "
            f"MindSpore and MindIR/Lite pipelines can fail to infer it"
        )
        start = self._flatten_start(reshape)
        rank = self._rank(reshape.receiver)
        if start is None or rank is not None and rank <= start:  # view(B, C, H, W, -1) appends a 1
            self.report(node, f"{problem}; write the size out")
            return
        replacement, needed = self._flatten(node, reshape.receiver, start)
        message = f"{problem}; use `{self.ctx.code(replacement)}`"
        if start == 0 or rank is not None:
            self.report(node, message, replacement, "safe", (needed,))
            return
        receiver = self.ctx.code(reshape.receiver)
        dimensions = "dimension" if start == 1 else "dimensions"
        unsafe = f" (unsafe: if `{receiver}` has exactly {start} {dimensions}, the view adds a trailing 1)"
        self.report(node, message + unsafe, replacement, "unsafe", (needed,))

    def _flatten(self, node: cst.Call, receiver: cst.BaseExpression, start: int) -> tuple[cst.Call, tuple | None]:
        flatten, needed = self.ctx.bindings.reference("mindspore.ops.flatten")
        if not isinstance(receiver, cst.Tuple | cst.GeneratorExp):  # `(x * 2).view(-1)`: no parentheses needed
            receiver = receiver.with_changes(lpar=[], rpar=[])
        start_dim = cst.Arg(cst.Integer(str(start)), keyword=cst.Name("start_dim"), equal=_no_space_equal())
        call = cst.Call(
            func=flatten, args=[cst.Arg(receiver, comma=_comma()), start_dim], lpar=node.lpar, rpar=node.rpar
        )
        return call, needed

    # -- matching -----------------------------------------------------------------------------------

    def _match(self, node: cst.Call) -> _Reshape | None:
        func = node.func
        if any(a.star or a.keyword is not None for a in node.args):
            return None
        values = [a.value for a in node.args]
        if self._is_reshape_function(func) or self.values.primitive_of(func) == "Reshape":
            return _Reshape.of(values[0], values[1:]) if len(values) == 2 else None
        if isinstance(func, cst.Attribute) and func.attr.value in ("view", "reshape") and values:
            is_self = isinstance(func.value, cst.Name) and func.value.value == "self"  # a method of the Cell
            return None if is_self else _Reshape.of(func.value, values)
        return None

    def _is_reshape_function(self, func: cst.BaseExpression) -> bool:
        return bool(self.ctx.names(func) & _RESHAPE_FUNCTIONS)

    # -- flatten forms ------------------------------------------------------------------------------

    def _flatten_start(self, reshape: _Reshape) -> int | None:
        """k when the shape is `(d0, …, dk-1, -1)` with every di the i-th dimension of the receiver."""
        *leading, last = reshape.dims
        if not _is_minus_one(last) or any(_is_minus_one(d) for d in leading):
            return None
        receiver = self.ctx.code(reshape.receiver)
        if leading and not _is_plain_reference(reshape.receiver):
            return None
        for i, dim in enumerate(leading):
            if self._leading_dim(dim, reshape.receiver) != Dim(receiver, i):
                return None
        return len(leading)

    def _leading_dim(self, node: cst.BaseExpression, receiver: cst.BaseExpression) -> Dim | None:
        if isinstance(node, cst.Subscript):  # x.shape[0], read together with the receiver
            return self.values.shape_dim(node)
        if isinstance(node, cst.Name) and self._settled(receiver):  # B = x.shape[0] … x.view(B, -1)
            return self.values.shape_dim(node)
        return None

    def _settled(self, receiver: cst.BaseExpression) -> bool:
        """The receiver is a name bound once in the function: its shape is the same wherever it is read."""
        return isinstance(receiver, cst.Name) and len(self.values.bindings(receiver.value)) == 1

    def _rank(self, receiver: cst.BaseExpression) -> int | None:
        """The number of dimensions of the receiver, when the function unpacks `B, C, H, W = x.shape`."""
        if not self._settled(receiver):
            return None
        code = self.ctx.code(receiver)
        for bindings in self.values.index().bindings.values():
            for b in bindings:
                if b.kind == "unpack" and b.size > 0 and self.values.shape_source(b.node) is not None:  # type: ignore[arg-type]
                    if self.ctx.code(self.values.shape_source(b.node)) == code:  # type: ignore[arg-type]
                        return b.size
        return None


_RESHAPE_FUNCTIONS = frozenset({"mindspore.ops.reshape", "mindspore.mint.reshape", "mindspore.numpy.reshape"})


@dataclass(frozen=True)
class _Reshape:
    receiver: cst.BaseExpression
    dims: tuple[cst.BaseExpression, ...]

    @classmethod
    def of(cls, receiver: cst.BaseExpression, shape: list[cst.BaseExpression]) -> _Reshape | None:
        if len(shape) == 1 and isinstance(shape[0], cst.Tuple | cst.List):
            elements = shape[0].elements
            if any(isinstance(e, cst.StarredElement) for e in elements):
                return None
            return cls(receiver, tuple(e.value for e in elements))
        return cls(receiver, tuple(shape)) if shape else None


def _is_minus_one(node: cst.BaseExpression) -> bool:
    return (
        isinstance(node, cst.UnaryOperation)
        and isinstance(node.operator, cst.Minus)
        and isinstance(node.expression, cst.Integer)
        and node.expression.value == "1"
    )


def _is_plain_reference(node: cst.BaseExpression) -> bool:
    """`x` or `self.x`: reading it twice gives the same tensor."""
    while isinstance(node, cst.Attribute):
        node = node.value
    return isinstance(node, cst.Name)


def _comma() -> cst.Comma:
    return cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))


def _no_space_equal() -> cst.AssignEqual:
    return cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace(""))
