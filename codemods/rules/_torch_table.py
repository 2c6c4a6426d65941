"""What the PyTorch-port rules (GM501–GM510) work from: the mapping tables and the size arguments.

The simple one-to-one mappings are data, as in PaConvert's `api_mapping.json`; the rules hold only the
code a table cannot express. Every entry was checked against MindSpore 2.10 on CPU: the signature with
`inspect.signature`, and a call with the torch spelling (fails) and with the mapped one (runs).

Whether a receiver (`x` in `x.size(0)`) may be a tensor is asked of `graphmend.values` with
`Caution.POSSIBLE`: a torch method name in graph code is itself evidence.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import libcst as cst
from libcst.metadata import Scope

from graphmend.builders import arg, as_tuple, call, tuple_of
from graphmend.calls import dotted_name
from graphmend.rule import FileContext
from graphmend.values import Values

# -- dim= → axis= on functional ops (GM502) ---------------------------------------------------------


@dataclass(frozen=True)
class AxisOp:
    """An ops function that takes `axis` where torch takes `dim`: its 2.10 signature, as recorded."""

    signature: str  # inspect.signature(mindspore.ops.<name>) in MindSpore 2.10, without the parentheses
    caveat: str = ""  # set when MindSpore's defaults differ from torch's: the fix is then unsafe

    @property
    def parameters(self) -> tuple[str, ...]:
        names = (p.split("=")[0].strip() for p in self.signature.split(","))
        return tuple(n for n in names if n and n != "*")

    @property
    def renames(self) -> dict[str, str]:
        """torch keyword → this function's keyword."""
        keep = next((k for k in ("keepdims", "keep_dims") if k in self.parameters), None)
        return {"dim": "axis", **({"keepdim": keep} if keep else {})}


_AXIS = {"dim": "axis"}
_AXIS_KEEP_DIMS = {"dim": "axis", "keepdim": "keep_dims"}
_DDOF = "ddof defaults to 0 (population) in MindSpore and to the unbiased 1 in torch"

# `mindspore.ops.<name>` that take `axis` (and `keepdims` or `keep_dims`) where torch has `dim` (and
# `keepdim`). Each raised "unexpected keyword argument 'dim'" in PyNative and ran with the mapped
# keywords; tests/test_verify_torch_port.py re-checks every signature against the installed MindSpore.
# Left out because they take `dim` already: sum, argmax, unsqueeze, logsumexp, norm, topk, cumprod,
# unbind, cosine_similarity, gather_elements, gumbel_softmax, cross, trapz.
DIM_KEYWORDS: Mapping[str, AxisOp] = {
    # activations
    "softmax": AxisOp("input, axis=-1, *, dtype=None"),
    "log_softmax": AxisOp("logits, axis=-1"),
    "softmin": AxisOp("x, axis=-1, *, dtype=None"),
    "glu": AxisOp("x, axis=-1"),
    # joining and splitting
    "cat": AxisOp("tensors, axis=0"),
    "concat": AxisOp("tensors, axis=0"),
    "stack": AxisOp("tensors, axis=0"),
    "split": AxisOp("tensor, split_size_or_sections, axis=0"),
    "chunk": AxisOp("input, chunks, axis=0"),
    # reductions
    "mean": AxisOp("x, axis=None, keep_dims=False"),
    "prod": AxisOp("input, axis=None, keep_dims=False, dtype=None"),
    "all": AxisOp("input, axis=None, keep_dims=False"),
    "any": AxisOp("input, axis=None, keep_dims=False"),
    "max": AxisOp("input, axis=None, keepdims=False, *, initial=None, where=None"),
    "min": AxisOp("input, axis=None, keepdims=False, *, initial=None, where=None"),
    "amax": AxisOp("input, axis=None, keepdims=False, *, initial=None, where=None"),
    "amin": AxisOp("input, axis=None, keepdims=False, *, initial=None, where=None"),
    "argmin": AxisOp("input, axis=None, keepdims=False"),
    "median": AxisOp("input, axis=-1, keepdims=False"),
    "nansum": AxisOp("input, axis=None, keepdims=False, *, dtype=None"),
    "nanmean": AxisOp("input, axis=None, keepdims=False, *, dtype=None"),
    "vector_norm": AxisOp("x, ord=2, axis=None, keepdims=False, *, dtype=None"),
    "std": AxisOp("input, axis=None, ddof=0, keepdims=False", _DDOF),
    "var": AxisOp("input, axis=None, ddof=0, keepdims=False", _DDOF),
    "count_nonzero": AxisOp("x, axis=(), keep_dims=False, dtype=mindspore.int32"),
    "reduce_sum": AxisOp("x, axis=()"),
    "reduce_mean": AxisOp("x, axis=()"),
    "reduce_max": AxisOp("x, axis=()"),
    # scans, sorting, indexing, reshaping
    "cumsum": AxisOp("x, axis, dtype=None"),
    "cummax": AxisOp("input, axis"),
    "cummin": AxisOp("input, axis"),
    "sort": AxisOp("input_x, axis=-1, descending=False"),
    "argsort": AxisOp("input, axis=-1, descending=False"),
    "diff": AxisOp("x, n=1, axis=-1, prepend=None, append=None"),
    "squeeze": AxisOp("input, axis=None"),
    "expand_dims": AxisOp("input_x, axis"),
    "index_select": AxisOp("input, axis, index"),
    "narrow": AxisOp("input, axis, start, length"),
    "repeat_interleave": AxisOp("input, repeats, axis=None"),
    "scatter": AxisOp("input, axis, index, src"),
    "renorm": AxisOp("input, p, axis, maxnorm"),
    "gather": AxisOp("input_params, input_indices, axis, batch_dims=0"),
}

# -- torch.* functions left in MindSpore code (GM510) ------------------------------------------------


@dataclass(frozen=True)
class TorchOp:
    """How one torch function becomes a `mindspore.ops` call.

    The first `carry` positional arguments keep their place (torch and ops agree on them); later ones
    become keywords named from `params` (torch's names). Keywords are renamed through `keywords`
    (torch name → ops name) and must then be parameters of `signature`. `defaults` are added where
    torch's default differs from MindSpore's. `shape` marks `torch.zeros(2, 3)`-style sizes that ops
    takes as one tuple.
    """

    target: str  # the ops function
    signature: str  # inspect.signature(mindspore.ops.<target>) in 2.10, without the parentheses
    keywords: Mapping[str, str] = field(default_factory=dict)
    params: tuple[str, ...] = ()
    carry: int = 99
    defaults: Mapping[str, str] = field(default_factory=dict)
    shape: bool = False

    @property
    def parameters(self) -> tuple[str, ...]:
        names = (p.split("=")[0].strip().lstrip("*") for p in self.signature.split(","))
        return tuple(n for n in names if n)


_ONE = "input"
_TWO = "input, other"
_UNARY = (
    "abs", "exp", "log", "log1p", "rsqrt", "sigmoid", "tanh", "sin", "cos", "floor", "ceil", "sign", "neg",
    "reciprocal", "erf", "square", "isnan", "isinf", "logical_not",
)  # fmt: skip
_BINARY = ("maximum", "minimum", "logical_and", "logical_or", "matmul")

TORCH_FUNCTIONS: Mapping[str, TorchOp] = {
    **{f"torch.{name}": TorchOp(name, _ONE) for name in _UNARY},
    **{f"torch.{name}": TorchOp(name, _TWO) for name in _BINARY},
    "torch.sqrt": TorchOp("sqrt", "x"),
    "torch.bmm": TorchOp("bmm", "input_x, mat2"),
    "torch.relu": TorchOp("relu", "input, inplace=False"),
    "torch.where": TorchOp("where", "condition, input, other"),
    "torch.clamp": TorchOp("clamp", "input, min=None, max=None"),
    "torch.cat": TorchOp("cat", "tensors, axis=0", _AXIS),
    "torch.concat": TorchOp("concat", "tensors, axis=0", _AXIS),
    "torch.stack": TorchOp("stack", "tensors, axis=0", _AXIS),
    "torch.split": TorchOp("split", "tensor, split_size_or_sections, axis=0", _AXIS),
    "torch.chunk": TorchOp("chunk", "input, chunks, axis=0", _AXIS),
    "torch.softmax": TorchOp("softmax", "input, axis=-1, *, dtype=None", _AXIS, ("input", "dim", "dtype"), 2),
    "torch.log_softmax": TorchOp("log_softmax", "logits, axis=-1", _AXIS),
    "torch.sum": TorchOp("sum", "input, dim=None, keepdim=False, *, dtype=None"),
    "torch.mean": TorchOp("mean", "x, axis=None, keep_dims=False", _AXIS_KEEP_DIMS),
    "torch.squeeze": TorchOp("squeeze", "input, axis=None", _AXIS),
    "torch.unsqueeze": TorchOp("unsqueeze", "input, dim"),
    "torch.cumsum": TorchOp("cumsum", "x, axis, dtype=None", _AXIS),
    "torch.topk": TorchOp("topk", "input, k, dim=None, largest=True, sorted=True"),
    "torch.gather": TorchOp("gather_elements", "input, dim, index"),
    "torch.transpose": TorchOp("swapaxes", "input, axis0, axis1", {"dim0": "axis0", "dim1": "axis1"}),
    "torch.permute": TorchOp("permute", "input, axis", {"dims": "axis"}),
    "torch.flatten": TorchOp(
        "flatten",
        "input, order='C', *, start_dim=1, end_dim=-1",
        params=("input", "start_dim", "end_dim"),
        carry=1,
        defaults={"start_dim": "0"},
    ),
    "torch.zeros": TorchOp("zeros", "size, dtype=None", shape=True),
    "torch.ones": TorchOp("ones", "shape, dtype=None", shape=True),
    "torch.zeros_like": TorchOp("zeros_like", "input, *, dtype=None"),
    "torch.ones_like": TorchOp("ones_like", "input, *, dtype=None"),
    "torch.nn.functional.relu": TorchOp("relu", "input, inplace=False"),
    "torch.nn.functional.sigmoid": TorchOp("sigmoid", _ONE),
    "torch.nn.functional.silu": TorchOp("silu", _ONE),
    "torch.nn.functional.softmax": TorchOp("softmax", "input, axis=-1, *, dtype=None", _AXIS, carry=2),
    "torch.nn.functional.log_softmax": TorchOp("log_softmax", "logits, axis=-1", _AXIS, carry=2),
}

# torch dtypes → the MindSpore dtype of the same name
TORCH_DTYPES: Mapping[str, str] = {
    **{f"torch.{name}": name for name in (
        "float16", "float32", "float64", "bfloat16", "int8", "int16", "int32", "int64", "uint8", "bool",
        "complex64", "complex128",
    )},
    "torch.half": "float16", "torch.float": "float32", "torch.double": "float64",
    "torch.short": "int16", "torch.int": "int32", "torch.long": "int64",
}  # fmt: skip


# torch functions another rule rewrites: GM510 leaves them to it
OTHER_RULES: Mapping[str, str] = {"torch.einsum": "GM511"}


def torch_name(ctx: FileContext, node: cst.BaseExpression) -> str | None:
    """`torch.cat` (imported under any alias, or the bare name `torch` that nothing binds) → "torch.cat"."""
    dotted = dotted_name(node)
    if dotted is None:
        return None  # `torch.zeros_like(x).long` is a method of a result, not a torch name
    names = [n for n in ctx.names(node) if n == "torch" or n.startswith("torch.")]
    if names:
        return names[0]
    if dotted.split(".")[0] == "torch" and ctx.bindings.is_free("torch") and not _bound_locally(ctx, node):
        return dotted
    return None


def _bound_locally(ctx: FileContext, node: cst.BaseExpression) -> bool:
    while isinstance(node, cst.Attribute):
        node = node.value
    scope: Scope | None = ctx.scopes.get(node)
    return isinstance(node, cst.Name) and scope is not None and node.value in scope


def sizes(node: cst.Call, values: Values) -> tuple[cst.BaseExpression | None, str]:
    """The sizes of torch's `x.expand(*sizes)` / `x.repeat(*sizes)` as one tuple expression, or why not.

    `(a, b)` from `f(a, b)`; `(*y.shape[:-1], 1)` from `f(*y.shape[:-1], 1)`; a tuple or list literal as a
    tuple; a Python list (`reps = [1] * (x.ndim + 1)`) as `tuple(reps)`, since `ops.tile` and `ops.broadcast_to`
    reject lists in every mode; `y.shape`, `y.shape[1:]`, or a local name bound only to one of them, as it is;
    `f(n)` with an int literal → `(n,)`. Any other single argument may be an int or a sequence (and a lone
    `*sizes` of unknown items may hold a whole size): no guess.
    """
    args = node.args
    if not args:
        return None, "no sizes given"
    if any(a.keyword is not None or a.star == "**" for a in args):
        return None, "keyword arguments"
    if any(a.star for a in args):  # `x.expand(*y.shape[:-1], 1)`: the same sizes, unpacked in a tuple
        if len(args) == 1 and not _sequence_of_sizes(values, args[0].value):
            return None, "star arguments of unknown sizes (one of them may be a whole size)"
        items = [cst.StarredElement(a.value) if a.star else cst.Element(a.value) for a in args]
        return cst.Tuple(items), ""
    if len(args) > 1:
        return as_tuple([a.value for a in args]), ""
    only = args[0].value
    if isinstance(only, cst.List):
        return tuple_of(only), ""
    if values.is_list(only) and values.builtin_here(only, "tuple"):
        # `reps = [1] * (x.ndim + 1)`: `ops.tile` and `ops.broadcast_to` take a tuple, never a list (measured:
        # "Failed calling Tile with dims=list" in every mode, golden/GM507/list_sizes.py)
        return cst.Call(cst.Name("tuple"), [cst.Arg(only)]), ""
    bound = values.values_of(only) if isinstance(only, cst.Name) else []
    if values.is_shape_like(only) or bound and all(values.is_shape_like(v) for v in bound):
        return only, ""
    if values.is_int(only) or _is_item(only):
        return as_tuple([only]), ""
    return None, f"`{values.ctx.code(only)}` may be one int or a sequence of them"


def _sequence_of_sizes(values: Values, node: cst.BaseExpression) -> bool:
    """A shape, a tuple or list of sizes, or a local bound only to one: unpacked, each item is one size."""
    bound = values.values_of(node) if isinstance(node, cst.Name) else [node]
    return bool(bound) and all(values.is_shape_like(v) or values.is_list(v) for v in bound)


def _is_item(node: cst.BaseExpression) -> bool:
    """`t.item()`: a Python number; where a size goes, an int."""
    return (
        isinstance(node, cst.Call)
        and not node.args
        and isinstance(node.func, cst.Attribute)
        and node.func.attr.value == "item"
    )


def sized_call(rule, node: cst.Call, receiver: cst.BaseExpression, target: str, message: str):
    """`target(receiver, sizes)` for torch's `x.expand(*sizes)` / `x.repeat(*sizes)`, with the import it
    needs and the sizes; None (reported without a fix, saying why) when the sizes cannot be read."""
    shape, why_not = sizes(node, rule.values)
    if shape is None:
        rule.report(node, f"{message} ({why_not}: rewrite by hand)")
        return None
    func, needed = rule.ctx.bindings.reference(target)
    return call(func, [arg(receiver), arg(shape)]), needed, shape
