from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from graphmend.builders import arg, atom, parenthesized
from graphmend.messages import explains
from graphmend.rule import Rule
from graphmend.rules._torch_table import torch_name
from graphmend.targets import DYNAMIC, EXPORT, GRAPH, STRICT, breaks

# `ops.einsum` under the names a file can reach it by (`from mindspore.ops import einsum` included)
_EINSUM = frozenset(
    {"mindspore.ops.einsum", "mindspore.ops.function.einsum", "mindspore.ops.function.math_func.einsum"}
)
# a port's `ms.einsum` (torch.einsum renamed): MindSpore has no such function
_MISSING = "mindspore.einsum"


class Einsum(Rule):
    """`ops.einsum(equation, a, b)` → transposes, `ops.matmul` and broadcasting, which every backend runs.

    What it does:
        Finds `ops.einsum` calls in graph code whose equation is a string literal over one or two operands
        (given apart, or in one tuple as torch and mindnlp allow) and rewrites them into the same
        computation with ops that have kernels everywhere:
        - one contracted index (`"bnqd,bnkd->bnqk"`, `"bhld,lrd->bhlr"`, `"ibh,hnd->ibnd"`): each operand
          is transposed (and given size-1 axes with `None`) so that the index is the last axis of the first
          and the second-to-last of the second, then `ops.matmul`, which broadcasts every other index;
        - no contracted index (`"i,j->ij"`, `"blq,blk->blqk"`): the operands, aligned to the output's
          axes, are multiplied (broadcasting); operands with the same indices, one of them contracted
          (`"bnqk,bnqk->bnq"`), are multiplied and summed over it;
        - several contracted indices (`"ibnd,hnd->ibh"`, XLNet's attention): each operand is transposed to
          hold them last, in the same order, and flattened into one axis (`ops.flatten(x, start_dim=-2,
          end_dim=-1)`), then contracted over it as above; operands with the same indices are multiplied
          and summed over all of them;
        - one operand (`"ijbn->bnij"`, `"ij->j"`): a sum and a transpose.
        An index that only one operand has and the output lacks is summed over first. Two axes that trade
        places are `ops.swapaxes`, other orders `ops.transpose`. A leading `...` in every subscript
        (`"...hqk,...khd->...qhd"`) stands for batch axes the source does not count: the written axes are
        then counted from the end (`ops.swapaxes(v, -3, -2)`, `ops.movedim`, `x[..., None, :]`).
        A port's `ms.einsum(...)` (torch's `einsum` renamed; `mindspore` has no such function, so the call
        raises AttributeError: mindone 0.5.0's CLAP) and a `torch.einsum` left in graph code (GM510 leaves
        it to this rule) are rewritten the same way. Equations with another ellipsis, a repeated index in
        one operand (a diagonal or trace), more than two operands, or an equation that is not a literal are
        reported without a fix, with what to write instead. `mint.einsum` is GM512's: GRAPH and STRICT
        compile it on CPU with static shapes, but PyNative on CPU ("einsum only supports Ascend") and a
        dynamic batch ("For EinsumExt, dynamic shape or dynamic rank is not supported yet") reject it
        (measured on 2.10 by tests/test_gm511_einsum.py), so GM512 rewrites it the same way for the dynamic
        target.

    Why it breaks graph mode:
        `ops.einsum` is the `Einsum` primitive, whose only kernel is on GPU (its docstring: "Supported
        Platforms: GPU"). Measured on MindSpore 2.10 (CPU), `ops.einsum("i,j->ij", a, b)` fails in
        PyNative, GRAPH, STRICT, a dynamic batch and export alike: "Kernel select failed: Unsupported op
        [Einsum] on CPU" (tests/verify_rules/torch_port/gm511_einsum.py). PyTorch ports keep `einsum`
        from `torch.einsum`; mindnlp 0.3.1 replaces `ops.einsum` at import time with a Python einsum that
        parses the equation: STRICT and export reject it (`str.find` on the equation), LAX runs it for some
        equations and not others (bench/realcells: EsmFold's and CvT's attention run in GRAPH, BERT's
        relative positions fail there on a `dot` of 1-D inputs, and CvT's and BERT's fail with a dynamic
        batch).

    Example:
        scores = ops.einsum("bnqd,bnkd->bnqk", q, k)
        # becomes
        scores = ops.matmul(q, ops.swapaxes(k, 2, 3))

    Fix safety:
        Safe: the same products summed over the same index, so the same values up to the order in which
        floats are added (matmul's order; einsum has none to keep on CPU, where it does not run), the same
        shape and dtype. The rewrite's numbers are checked against numpy's `einsum` on every form above
        (tests/test_gm511_einsum.py evaluates the emitted code with numpy on random shapes: the corpus's
        equations and 1,200 drawn ones), and graphmend's own fix of a Cell with fourteen einsums compiles in
        GRAPH, STRICT, a dynamic batch and export with PyNative's numbers, which equal numpy's einsum.
    """

    CODE = "GM511"
    NAME = "einsum"
    BREAKS = breaks(GRAPH, STRICT, DYNAMIC, EXPORT, pynative=True, note="the Einsum kernel is GPU-only")
    EXPLAINS = (
        explains(r"Unsupported op \[Einsum\] on CPU", GRAPH, STRICT, DYNAMIC, EXPORT),
        # mindnlp 0.3.1's Python einsum (bench/realcells: EsmFold's, CvT's and BERT's self-attention)
        explains(
            r"cannot get attributes find or the String object has no attribute: 'find'.*"
            r"mindnlp[/\\]_legacy[/\\]functional\.py",
            STRICT,
            EXPORT,
        ),
        explains(r"For \\?'dot\\?', the inputs x1, x2 should have \\?'dimension >= 2", GRAPH),
        explains(r"Can not get size for dynamic length sequence", DYNAMIC),
    )
    FIX = "safe"

    def visit_Call(self, node: cst.Call) -> None:
        if not node.args:
            return
        text = _literal(node.args[0].value)
        head = self._head(node, text)
        if head is None:
            return
        operands = [a.value for a in node.args[1:]]
        if len(operands) == 1 and isinstance(operands[0], cst.Tuple | cst.List):
            # torch's (and mindnlp's) `einsum(eq, (a, b))`: the operands in one tuple
            elements = operands[0].elements
            starred = any(isinstance(e, cst.StarredElement) for e in elements)
            operands = [] if starred else [e.value for e in elements]
        by_hand = "write it with `ops.matmul`, transposes and broadcasting by hand"
        if any(a.keyword is not None or a.star for a in node.args) or not operands:
            self.report(node, f"{head}; {by_hand}")
            return
        if text is None:
            self.report(node, f"{head}; its equation is not a literal: {by_hand}")
            return
        plan = translate(text, len(operands))
        if isinstance(plan, str):
            self.report(node, f"{head}; `{text}` has {plan}: {by_hand}")
            return
        spellings, imports = {}, []  # `matmul` → `ops.matmul` as this file reaches it, and the imports needed
        for op in sorted(plan.ops()):
            reference, needed = self.ctx.bindings.reference(f"mindspore.ops.{op}")
            spellings[op] = cst.Module([]).code_for_node(reference)
            imports.append(needed)
        replacement = cst.parse_expression(plan.code(spellings)).visit(_Operands(operands))
        if node.lpar:
            replacement = replacement.with_changes(lpar=node.lpar, rpar=node.rpar)
        elif plan.kind == "mul" and isinstance(self.ctx.parents.get(node), _BINDS_TIGHTER):
            replacement = parenthesized(replacement)  # `x / (a * b)`, not `x / a * b`
        shown = " ".join(cst.Module([]).code_for_node(replacement).split())
        message = f"{head}; use `{shown}`, the same sums of products with ops every backend runs"
        self.report(node, message, replacement, "safe", tuple(imports))

    def _head(self, node: cst.Call, text: str | None) -> str | None:
        """What is wrong with the call, when it is one of this rule's einsums; None otherwise."""
        names = self.ctx.names(node.func)
        torch = torch_name(self.ctx, node.func) == "torch.einsum"
        if not (names & _EINSUM or _MISSING in names or torch):
            return None
        spelled = f'ops.einsum("{text}", …)' if text is not None else "ops.einsum(…)"
        if torch:
            spelled = spelled.replace("ops.einsum", self.ctx.code(node.func), 1)
            return f"`{spelled}` in {self.ctx.where()} is a torch call: MindSpore cannot run it"
        if not names & _EINSUM:
            spelled = spelled.replace("ops.einsum", self.ctx.code(node.func), 1)
            return (
                f"`{spelled}` in {self.ctx.where()}: MindSpore has no `einsum` at its top level (a port's "
                "`torch.einsum`), so the call raises AttributeError in every mode"
            )
        return (
            f"`{spelled}` in {self.ctx.where()}: MindSpore's Einsum has a GPU kernel only (its docs), and fails on "
            'CPU in every mode ("Unsupported op [Einsum] on CPU", PyNative included)'
        )


def _literal(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.SimpleString):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


# a product put where one of these holds the call needs parentheses
_BINDS_TIGHTER = (cst.BinaryOperation, cst.UnaryOperation, cst.Attribute, cst.Subscript, cst.Await)


class _Operands(cst.CSTTransformer):
    """The placeholders `__gm_operand_<i>__` of the planned code → the call's operands, as written (in
    parentheses where they are a receiver or a factor: `(a + b)[:, None]`, not as a call's argument)."""

    def __init__(self, operands: list[cst.BaseExpression]) -> None:
        super().__init__()
        self.operands = operands

    def _operand(self, node: cst.BaseExpression) -> cst.BaseExpression | None:
        if isinstance(node, cst.Name) and node.value.startswith("__gm_operand_"):
            return self.operands[int(node.value.removeprefix("__gm_operand_").rstrip("_"))]
        return None

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
        operand = self._operand(original)
        return updated if operand is None else atom(operand)

    def leave_Arg(self, original: cst.Arg, updated: cst.Arg) -> cst.Arg:
        operand = self._operand(original.value)
        return updated if operand is None else arg(operand)


# -- the plan: what einsum computes, as transposes, sums, size-1 axes, matmul and products ---------------


@dataclass(frozen=True)
class Expr:
    """An expression of the plan: `kind` and its parts (`operand`: index; `sum`: axes; `transpose`: the
    permutation; `axes`: a subscript of `:` and `None`; `squeeze`: an axis; `matmul`/`mul`: two exprs)."""

    kind: str
    parts: tuple = ()

    def ops(self) -> set[str]:
        found = {self.kind} if self.kind in ("matmul", "transpose", "swapaxes", "movedim", "flatten") else set()
        for part in self.parts:
            if isinstance(part, Expr):
                found |= part.ops()
        return found

    def code(self, names: dict[str, str]) -> str:
        kind, parts = self.kind, self.parts
        if kind == "operand":
            return f"__gm_operand_{parts[0]}__"
        if kind == "sum":
            axes, inner = parts[1], parts[0].code(names)
            inner = f"({inner})" if parts[0].kind == "mul" else inner
            return f"{inner}.sum(axis={axes[0] if len(axes) == 1 else axes})"
        if kind == "transpose":
            return f"{names['transpose']}({parts[0].code(names)}, {parts[1]})"
        if kind == "swapaxes":
            return f"{names['swapaxes']}({parts[0].code(names)}, {parts[1]}, {parts[2]})"
        if kind == "movedim":
            return f"{names['movedim']}({parts[0].code(names)}, {parts[1]}, {parts[2]})"
        if kind == "axes":
            pattern = ", ".join([*(["..."] if parts[2] else []), *(":" if keep else "None" for keep in parts[1])])
            return f"{parts[0].code(names)}[{pattern}]"
        if kind == "flatten":
            return f"{names['flatten']}({parts[0].code(names)}, start_dim={parts[1]}, end_dim={parts[2]})"
        if kind == "squeeze":
            return f"{parts[0].code(names)}.squeeze({parts[1]})"
        if kind == "matmul":
            return f"{names['matmul']}({parts[0].code(names)}, {parts[1].code(names)})"
        return f"{parts[0].code(names)} * {parts[1].code(names)}"  # mul: every part is an atom


def translate(equation: str, count: int) -> Expr | str:
    """The plan for `einsum(equation, *count operands)`, or why there is none (a phrase: "an ellipsis")."""
    parsed = _parse(equation, count)
    if isinstance(parsed, str):
        return parsed
    inputs, output, lead = parsed
    operands = [_summed(Expr("operand", (i,)), letters, [*output, *"".join(inputs[:i] + inputs[i + 1 :])], lead)
                for i, letters in enumerate(inputs)]  # fmt: skip
    if count == 1:
        expr, letters = operands[0]
        return _ordered(expr, letters, list(output), lead)
    (a, a_letters), (b, b_letters) = operands
    contracted = [x for x in a_letters if x in b_letters and x not in output]
    if len(contracted) > 1 and set(a_letters) != set(b_letters):
        return _merged(a, a_letters, b, b_letters, contracted, list(output), lead)
    if not contracted:
        left = _aligned(*_ordered_pair(a, a_letters, output, lead), output, lead)
        right = _aligned(*_ordered_pair(b, b_letters, output, lead), output, lead)
        return Expr("mul", (left, right))
    if set(a_letters) == set(b_letters):  # every index shared: products of equal shapes, summed (no matmul)
        order = [*output, *contracted]
        product = Expr("mul", (_ordered(a, a_letters, order, lead), _ordered(b, b_letters, order, lead)))
        return Expr("sum", (product, tuple(range(-len(contracted), 0))))
    return _contraction(a, a_letters, b, b_letters, contracted[0], list(output), lead)


def _merged(
    a: Expr, a_letters: list[str], b: Expr, b_letters: list[str], contracted: list[str], output: list[str], lead: bool
) -> Expr:
    """Several contracted indices (`"ibnd,hnd->ibh"`): each operand transposed to hold them last, in the same
    order, and flattened into one (`ops.flatten(x, start_dim=-2, end_dim=-1)`), then one contraction over it."""
    merged = "*"  # an index no equation can have: the contracted ones, flattened into one axis
    count = len(contracted)
    a_rest = [x for x in a_letters if x not in contracted]
    b_rest = [x for x in b_letters if x not in contracted]
    left = Expr("flatten", (_transposed(a, a_letters, [*a_rest, *contracted], lead), -count, -1))
    right = Expr("flatten", (_transposed(b, b_letters, [*b_rest, *contracted], lead), -count, -1))
    return _contraction(left, [*a_rest, merged], right, [*b_rest, merged], merged, output, lead)


def _parse(equation: str, count: int) -> tuple[list[str], str, bool] | str:
    """(the operands' indices, the output's, whether they all follow a leading `...`), or why not."""
    equation = "".join(equation.split())
    if count not in (1, 2):
        return f"{count} operands"
    lhs, arrow, rhs = equation.partition("->")
    inputs = lhs.split(",")
    if len(inputs) != count:
        return f"{len(inputs)} operand subscripts for {count} operands"
    lead = "..." in equation
    if lead:  # `...` first in every subscript: the same leading axes everywhere, broadcast like batch indices
        if not arrow or any(not s.startswith("...") or s.count(".") != 3 for s in (*inputs, rhs)):
            return "an ellipsis that is not the first index of every operand and of the output"
        inputs, rhs = [s[3:] for s in inputs], rhs[3:]
    letters = "".join(inputs)
    if not all(x.isascii() and x.isalpha() for x in letters + rhs):
        return "characters other than index letters"
    if not arrow:  # implicit output: the indices that appear once, in alphabetical order
        if not letters.islower():
            return "no `->` and capital indices"
        rhs = "".join(sorted(x for x in set(letters) if letters.count(x) == 1))
    for subscript in (*inputs, rhs):
        if len(set(subscript)) != len(subscript):
            return f"a repeated index in `{subscript}` (a diagonal or a trace)"
    if not set(rhs) <= set(letters):
        return "an output index no operand has"
    return inputs, rhs, lead


def _summed(expr: Expr, letters: str, elsewhere: list[str], lead: bool) -> tuple[Expr, list[str]]:
    """The operand summed over the indices that no other operand and not the output have (counted from the
    end after a leading `...`)."""
    axes = tuple(i - (len(letters) if lead else 0) for i, x in enumerate(letters) if x not in elsewhere)
    if not axes:
        return expr, list(letters)
    return Expr("sum", (expr, axes)), [x for x in letters if x in elsewhere]


def _transposed(expr: Expr, letters: list[str], order: list[str], lead: bool) -> Expr:
    """`expr`, whose axes are `letters`, with its axes in `order` (the same letters); after a leading `...`,
    the last axes moved among themselves (`ops.movedim` with axes counted from the end)."""
    permutation = tuple(letters.index(x) for x in order)
    shift = len(letters) if lead else 0  # axes counted from the end after `...`
    moved = [(p - shift, i - shift) for i, p in enumerate(permutation) if p != i]
    if not moved:
        return expr
    if len(moved) == 2:  # two axes trade places
        return Expr("swapaxes", (expr, *sorted(source for source, _ in moved)))
    if not lead:
        return Expr("transpose", (expr, permutation))
    return Expr("movedim", (expr, tuple(s for s, _ in moved), tuple(d for _, d in moved)))


def _ordered(expr: Expr, letters: list[str], order: list[str], lead: bool) -> Expr:
    return _transposed(expr, letters, [x for x in order if x in letters], lead)


def _ordered_pair(expr: Expr, letters: list[str], output: str, lead: bool) -> tuple[Expr, list[str]]:
    order = [x for x in output if x in letters]
    return _transposed(expr, letters, order, lead), order


def _aligned(
    expr: Expr, letters: list[str], target: list[str] | str, lead: bool, operand_of_matmul: bool = False
) -> Expr:
    """`expr` (axes `letters`, in the order of `target`) with a `None` axis for each index of `target` it lacks
    (`None` stands for a size-1 axis too). Leading ones are left to broadcasting, but for the last two axes of
    a matmul operand (a 1-D operand is a vector to matmul, not a row); trailing `:` are not written. After a
    leading `...` every axis is written: `x[..., None, :]`."""
    keep = [x in letters for x in target]
    if lead:
        return Expr("axes", (expr, tuple(keep), True)) if not all(keep) else expr
    lead = 0
    while lead < len(keep) - (2 if operand_of_matmul else 0) and not keep[lead]:
        lead += 1
    keep = keep[lead:]
    while keep and keep[-1]:
        keep.pop()
    return Expr("axes", (expr, tuple(keep), False)) if keep else expr


def _contraction(
    a: Expr, a_letters: list[str], b: Expr, b_letters: list[str], k: str, output: list[str], lead: bool
) -> Expr:
    """`matmul` over the one contracted index `k`: a as (…, M, k), b as (…, k, N), every other index a
    broadcast axis; M and N (each an index only one operand has, or a size-1 axis) chosen for the fewest
    transposes and size-1 axes."""
    a_only = [x for x in output if x in a_letters and x not in b_letters]
    b_only = [x for x in output if x in b_letters and x not in a_letters]
    plans = []
    for m in [*reversed(a_only), None]:
        for n in [*reversed(b_only), None]:
            rest = [x for x in output if x not in (m, n)]
            result = [*rest, *(x for x in (m, n) if x)]
            left_order = [x for x in [*rest, m, k] if x in a_letters]
            right_order = [x for x in [*rest, k, n] if x in b_letters]
            # first, how many axes matmul broadcasts an operand over (each may copy it that many times over),
            # then the transposes and size-1 axes written
            broadcast = sum(x not in a_letters for x in rest) + sum(x not in b_letters for x in rest)
            written = (result != output) + (left_order != a_letters) + (right_order != b_letters)
            written += (m is None) + (n is None)
            plans.append(((broadcast, written), m, n, rest, result, left_order, right_order))
    _, m, n, rest, result, left_order, right_order = min(plans, key=lambda p: p[0])
    left = _aligned(_transposed(a, a_letters, left_order, lead), left_order, [*rest, m or "", k], lead, True)
    right = _aligned(_transposed(b, b_letters, right_order, lead), right_order, [*rest, k, n or ""], lead, True)
    expr = Expr("matmul", (left, right))
    if n is None:
        expr = Expr("squeeze", (expr, -1))
    if m is None:
        expr = Expr("squeeze", (expr, -1 if n is None else -2))
    return _transposed(expr, result, output, lead)
