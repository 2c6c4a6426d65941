"""What the shape and control-flow rules (GM301–GM302, GM401–GM402) may assume about values in graph code.

Whether a value is a tensor cannot be known for sure from the source. Every guess of the family is
made here, and every guess leans towards "don't know": a rule that does not know leaves the code alone.

- A *tensor* is
  - the result of a MindSpore op: `ops.*`/`mint.*`/`mindspore.numpy.*` functions (not those returning
    tuples, shapes or dtypes), `Tensor(...)`, `Parameter(...)`, a tensor method of a tensor, a
    primitive (`ops.ReduceSum()(x)`, or `self.sum(x)` when `__init__` sets `self.sum = ops.ReduceSum()`)
    or a plain `nn` layer set in `__init__` (`self.conv(x)` with `self.conv = nn.Conv2d(...)`);
  - arithmetic or a comparison with a tensor in it, an index into a tensor;
  - `self.attr` when every assignment of it in the Cell makes a tensor (`Parameter(...)`, `Tensor(...)`);
  - a parameter annotated `Tensor` with no default but `None`, that no loop walks and no `if` tests
    for truth (ported code annotates lists of tensors and boolean flags such as `output_attentions`
    as `Tensor`), or a name whose first binding (parameter or assignment) is used as
    only an array can be before anything rebinds it: `x.shape`, `x.view(...)`, `x[:, 0]`, `self.conv(x)`,
    `ops.relu(x)`. Parameters are not tensors by default: detection heads and necks take lists of
    feature maps (`for i in range(len(x))`). Such uses cannot tell a tensor from a host numpy array;
    `len(a)` and `a.shape[0]` agree on both;
  - a local name every binding of which is one of these (flow-insensitive), never a name passed to
    `isinstance`/`type`.
- *Not* tensors: `x.shape` (a tuple) and its items, `len(...)`, `None`, `self.training`, config
  attributes, Python literals, lists, `self.layers` (a CellList), and anything unknown.
- A *0-d tensor* (needed before a condition may become `ops.where`): a full reduction (`x.mean()`,
  `ops.reduce_sum(m)`) and arithmetic or comparisons of 0-d tensors with Python numbers.
- A *shape dimension*: `x.shape[k]`, `ops.shape(x)[k]`, `len(tensor)` (dimension 0), names unpacked
  from `x.shape`, and integer arithmetic on them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import libcst as cst

from codemods.names import qualified_names
from codemods.rule import FileContext
from codemods.scopes import UNKNOWN, is_self_attribute

# modules whose functions are tensor ops (not `mint.distributed.is_available` and the like)
OP_MODULES = frozenset({
    "mindspore.ops", "mindspore.ops.operations", "mindspore.ops.auto_generate", "mindspore.mint",
    "mindspore.mint.nn.functional", "mindspore.mint.linalg", "mindspore.mint.special", "mindspore.numpy",
    "mindspore.nn.functional",
})  # fmt: skip
TENSOR_CONSTRUCTORS = frozenset({"mindspore.Tensor", "mindspore.tensor"})
TENSOR_MAKERS = TENSOR_CONSTRUCTORS | {"mindspore.Parameter"}
INITIALIZER = "mindspore.common.initializer.initializer"

# ops functions whose result is not one tensor (tuples, shapes, dtypes, Python values, or pass-through)
_NOT_ONE_TENSOR = frozenset({
    "split", "chunk", "unbind", "unstack", "tensor_split", "array_split", "vsplit", "hsplit", "dsplit",
    "meshgrid", "broadcast_tensors", "atleast_1d", "atleast_2d", "atleast_3d", "topk", "sort", "max", "min",
    "aminmax", "median", "mode", "kthvalue", "cummax", "cummin", "unique", "unique_with_pad", "std_mean",
    "var_mean", "frexp", "svd", "qr", "eig", "eigh", "slogdet", "lu", "lu_unpack", "lstsq", "geqrf",
    "histogram", "shape", "rank", "size", "numel", "dtype", "typeof", "is_tensor", "is_floating_point",
    "is_complex", "isconstant", "grad", "value_and_grad", "vjp", "jvp", "vmap", "print_", "depend",
    "stop_gradient", "ctc_loss", "ctc_greedy_decoder", "fractional_max_pool2d", "fractional_max_pool3d",
    "where_",
})  # fmt: skip
# keywords that turn a tensor-returning op into a tuple-returning one
_TUPLE_KEYWORDS = ("return_", "as_tuple", "with_indices")
# ops whose result is a tuple of tensors (unpacking or iterating it gives tensors)
_TENSOR_TUPLE_OPS = frozenset({"split", "chunk", "unbind", "unstack", "tensor_split", "meshgrid", "topk", "sort"})

# Tensor methods that return one tensor (`max`/`min` only without arguments: `x.max(1)` is a tuple)
TENSOR_METHODS = frozenset({
    "abs", "add", "all", "any", "argmax", "argmin", "astype", "bool", "broadcast_to", "ceil", "clamp", "clip",
    "contiguous", "cos", "cumprod", "cumsum", "div", "double", "eq", "exp", "expand_as", "expand_dims",
    "flatten", "float", "floor", "gather", "ge", "gt", "half", "index_select", "int", "le", "log", "log1p",
    "logical_not", "long", "lt", "masked_fill", "matmul", "mean", "mul", "ne", "neg", "nonzero", "norm",
    "permute", "pow", "prod", "reciprocal", "relu", "reshape", "round", "rsqrt", "sigmoid", "sign", "sin",
    "softmax", "sqrt", "square", "squeeze", "std", "sub", "sum", "swapaxes", "t", "tanh", "tile",
    "transpose", "tril", "triu", "unsqueeze", "var", "view",
})  # fmt: skip
_FULL_REDUCTIONS = frozenset({
    "mean", "sum", "max", "min", "prod", "all", "any", "std", "var", "norm", "amax", "amin",
})  # fmt: skip
_OPS_FULL_REDUCTIONS = frozenset({
    "reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod", "reduce_all", "reduce_any",
    "sum", "mean", "prod", "all", "any", "amax", "amin", "norm",
})  # fmt: skip
# Using a parameter so is evidence that it is a tensor (lists, tuples and dicts have none of these)
_EVIDENCE_ATTRIBUTES = (TENSOR_METHODS | {"shape", "dtype", "ndim", "T", "asnumpy", "item", "max", "min"}) - {
    "all",
    "any",
    "bool",
    "double",
    "float",
    "int",
    "long",
    "copy",
    "index",
    "count",
}
# ops functions whose first argument must be a tensor (no sequence-taking or shape-taking ones)
_TENSOR_FIRST_ARG_OPS = frozenset({
    "abs", "exp", "log", "sqrt", "rsqrt", "sigmoid", "tanh", "relu", "relu6", "gelu", "silu", "softmax",
    "log_softmax", "reshape", "transpose", "permute", "flatten", "expand_dims", "squeeze", "unsqueeze",
    "reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "matmul", "bmm", "gather", "tile",
    "broadcast_to", "interpolate", "pad", "cast", "clip_by_value", "clamp", "masked_fill", "swapaxes",
    "square", "neg", "floor", "ceil", "sign", "l2_normalize", "dense", "conv2d", "layer_norm", "split",
    "chunk", "unbind", "unstack",
})  # fmt: skip
# Primitives (ops.ReduceSum and friends) known to return one tensor
_TENSOR_PRIMITIVES = frozenset({
    "ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceAll", "ReduceAny", "Reshape",
    "Transpose", "Concat", "Stack", "Cast", "ExpandDims", "Squeeze", "Mul", "Add", "Sub", "Div", "RealDiv",
    "MatMul", "BatchMatMul", "Softmax", "LogSoftmax", "Sigmoid", "ReLU", "ReLU6", "Tanh", "Exp", "Log",
    "Sqrt", "Rsqrt", "Square", "Abs", "Neg", "Maximum", "Minimum", "Pow", "Select", "Equal", "Greater",
    "Less", "GreaterEqual", "LessEqual", "NotEqual", "LogicalAnd", "LogicalOr", "LogicalNot", "Tile",
    "BroadcastTo", "Gather", "GatherD", "GatherNd", "OneHot", "ZerosLike", "OnesLike", "Flatten",
    "StridedSlice", "Slice", "Sign", "Floor", "Ceil", "Erf", "L2Normalize", "Argmax", "CumSum", "Pad",
})  # fmt: skip
_FULL_REDUCTION_PRIMITIVES = frozenset({
    "ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceAll", "ReduceAny",
})  # fmt: skip
# nn layers that map one tensor to one tensor
_TENSOR_LAYERS = frozenset({
    "Dense", "Conv1d", "Conv2d", "Conv3d", "Conv1dTranspose", "Conv2dTranspose", "Conv3dTranspose",
    "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LayerNorm", "GroupNorm", "InstanceNorm1d",
    "InstanceNorm2d", "InstanceNorm3d", "ReLU", "ReLU6", "GELU", "SiLU", "Sigmoid", "Tanh", "Softmax",
    "LogSoftmax", "LeakyReLU", "PReLU", "HSwish", "HSigmoid", "Mish", "ELU", "Dropout", "MaxPool1d",
    "MaxPool2d", "AvgPool1d", "AvgPool2d", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveMaxPool2d",
    "Flatten", "Embedding", "PixelShuffle", "Upsample",
})  # fmt: skip
# Calls that draw random numbers or change state: never duplicated, reordered or dropped
_IMPURE_FRAGMENTS = (
    "rand", "uniform", "normal", "multinomial", "bernoulli", "shuffle", "gamma", "poisson", "laplace",
    "dropout", "gumbel", "sampler", "assign", "scatter", "print", "depend", "choice",
)  # fmt: skip
_PURE_BUILTINS = frozenset({"len", "abs", "min", "max", "float", "int", "bool"})
ITERATORS = ("enumerate", "zip", "reversed")
# Elementwise ops: the result has the broadcast shape of the arguments
ELEMENTWISE = frozenset({
    "abs", "exp", "log", "log1p", "expm1", "sqrt", "rsqrt", "square", "neg", "sigmoid", "tanh", "relu",
    "relu6", "gelu", "silu", "softplus", "sin", "cos", "floor", "ceil", "round", "sign", "reciprocal", "erf",
    "add", "sub", "mul", "div", "pow", "maximum", "minimum", "clip_by_value", "clamp", "clip", "where",
    "select", "logical_and", "logical_or", "logical_not", "masked_fill", "isnan", "isinf", "isfinite",
    "softmax", "log_softmax",
})  # fmt: skip
CASTS = frozenset({"float", "half", "double", "int", "long", "bool"})


@dataclass(frozen=True)
class Binding:
    """One way a local name gets a value in the graph function."""

    kind: str  # "param", "value", "unpack", "iterate", "aug", "opaque"
    node: cst.CSTNode | None  # the Param; the value, unpacked value, iterable or augmented operand
    position: int = 0  # the index in an unpacked tuple
    size: int = 0  # how many names the tuple unpacks into (-1 with a starred name)
    order: int = 0  # source order of the binding in the function


@dataclass(frozen=True)
class Dim:
    """A shape dimension an expression depends on: `x.shape[k]` → (`x`, k); k is None when not a literal."""

    tensor: str
    index: int | None


class Facts:
    """Answers about values in the graph function being visited; one per rule instance."""

    def __init__(self, ctx: FileContext) -> None:
        self.ctx = ctx
        self._functions: dict[int, _FunctionIndex] = {}
        self._visiting: set[tuple[str, str]] = set()

    # -- bindings -----------------------------------------------------------------------------------

    def index(self) -> _FunctionIndex:
        function = self.ctx.current.node  # type: ignore[union-attr]
        found = self._functions.get(id(function))
        if found is None:
            found = self._functions[id(function)] = _FunctionIndex.of(function)
        return found

    def bindings(self, name: str) -> list[Binding]:
        return self.index().bindings.get(name, [])

    # -- tensors ------------------------------------------------------------------------------------

    def is_tensor(self, node: cst.BaseExpression) -> bool:
        if isinstance(node, cst.Name):
            return self._guarded(("tensor", node.value), lambda: self._name_is_tensor(node.value), True)
        if isinstance(node, cst.Attribute):
            if node.attr.value in ("T", "mT", "real", "imag"):
                return self.is_tensor(node.value)
            values = self.self_attribute(node)
            return bool(values) and all(self._makes_tensor(v) for v in values)
        if isinstance(node, cst.Subscript):
            return self.is_tensor(node.value)
        if isinstance(node, cst.Call):
            return self._call_gives_tensor(node)
        if isinstance(node, cst.BinaryOperation):
            return self.is_tensor(node.left) or self.is_tensor(node.right)
        if isinstance(node, cst.UnaryOperation):
            return not isinstance(node.operator, cst.Not) and self.is_tensor(node.expression)
        if isinstance(node, cst.Comparison):
            return _is_value_comparison(node) and any(self.is_tensor(n) for n in _operands(node))
        if isinstance(node, cst.IfExp):
            return self.is_tensor(node.body) and self.is_tensor(node.orelse)
        return False

    def is_scalar_tensor(self, node: cst.BaseExpression) -> bool:
        """A 0-d tensor: a full reduction, or arithmetic and comparisons of them with Python numbers."""
        if isinstance(node, cst.Call):
            return self._is_full_reduction(node)
        if isinstance(node, cst.Name):
            bindings = self.bindings(node.value)
            return bool(bindings) and self._guarded(
                ("scalar", node.value),
                lambda: all(b.kind == "value" and self.is_scalar_tensor(b.node) for b in bindings),  # type: ignore[arg-type]
                False,
            )
        if isinstance(node, cst.UnaryOperation):
            return not isinstance(node.operator, cst.Not) and self.is_scalar_tensor(node.expression)
        if isinstance(node, cst.BinaryOperation | cst.Comparison):
            if isinstance(node, cst.Comparison) and not _is_value_comparison(node):
                return False
            parts = _operands(node)
            return any(self.is_scalar_tensor(p) for p in parts) and all(
                self.is_scalar_tensor(p) or self.is_number(p) for p in parts
            )
        return False

    def is_number(self, node: cst.BaseExpression) -> bool:
        """A Python number: a literal, or `self.attr` that the Cell sets only to numbers or its arguments."""
        if isinstance(node, cst.UnaryOperation):
            return self.is_number(node.expression)
        if isinstance(node, cst.Integer | cst.Float):
            return True
        if isinstance(node, cst.Attribute):
            values = self.self_attribute(node)
            return bool(values) and all(_is_config_value(v) for v in values)
        return False

    def depends_on_tensor(self, node: cst.BaseExpression) -> bool:
        """A condition whose truth is a tensor's value: `x.mean() > 0`, `mask.any() and flag`, `x.item()`."""
        if self.is_tensor(node):
            return True
        if isinstance(node, cst.BooleanOperation):
            return self.depends_on_tensor(node.left) or self.depends_on_tensor(node.right)
        if isinstance(node, cst.UnaryOperation):
            return self.depends_on_tensor(node.expression)
        if isinstance(node, cst.Comparison):
            return _is_value_comparison(node) and any(self.depends_on_tensor(n) for n in _operands(node))
        if isinstance(node, cst.Call) and len(node.args) == 1 and self.is_builtin(node.func, ("bool", "float", "int")):
            return self.is_tensor(node.args[0].value)
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
            return node.func.attr.value in ("item", "asnumpy") and self.is_tensor(node.func.value)
        return False

    # -- shapes -------------------------------------------------------------------------------------

    def dims(self, node: cst.BaseExpression) -> list[Dim]:
        """Every shape dimension `node` depends on (`range(x.shape[0] // 2)` → [x dim 0])."""
        found: list[Dim] = []
        self._collect_dims(node, found)
        return found

    def shape_dim(self, node: cst.BaseExpression) -> Dim | None:
        """`x.shape[k]`, `ops.shape(x)[k]`, `len(tensor)`, or a name bound only to one of them."""
        if isinstance(node, cst.Subscript):
            source = self._shape_source(node.value)
            index = _single_index(node)
            if source is not None and index is not _NO_INDEX:
                return Dim(self.ctx.code(source), index)  # type: ignore[arg-type]
            return None
        if isinstance(node, cst.Call) and self.is_len_call(node) and self.is_tensor(node.args[0].value):
            return Dim(self.ctx.code(node.args[0].value), 0)
        if isinstance(node, cst.Name):
            bindings = self.bindings(node.value)
            dims = {self._binding_dim(b) for b in bindings}
            if len(bindings) == 1 and None not in dims:
                return dims.pop()
        return None

    def shape_source(self, node: cst.BaseExpression) -> cst.BaseExpression | None:
        return self._shape_source(node)

    def is_len_call(self, node: cst.Call) -> bool:
        return (
            self.is_builtin(node.func, ("len",))
            and len(node.args) == 1
            and not node.args[0].star
            and node.args[0].keyword is None
        )

    # -- purity and shape keys (for ops.where) -----------------------------------------------------

    def is_pure(self, node: cst.CSTNode) -> bool:
        """Evaluating `node` twice, or when it was not evaluated before, changes nothing."""
        if isinstance(node, cst.Name | cst.Integer | cst.Float | cst.Imaginary | cst.SimpleString | cst.Ellipsis):
            return True
        if isinstance(node, cst.Attribute):
            return self.is_pure(node.value)
        if isinstance(node, cst.Subscript):
            return self.is_pure(node.value) and all(self.is_pure(e.slice) for e in node.slice)
        if isinstance(node, cst.Index):
            return self.is_pure(node.value)
        if isinstance(node, cst.Slice):
            return all(self.is_pure(p) for p in (node.lower, node.upper, node.step) if p is not None)
        if isinstance(node, cst.BinaryOperation):
            return self.is_pure(node.left) and self.is_pure(node.right)
        if isinstance(node, cst.UnaryOperation):
            return self.is_pure(node.expression)
        if isinstance(node, cst.Comparison):
            return all(self.is_pure(p) for p in _operands(node))
        if isinstance(node, cst.Tuple | cst.List):
            return all(isinstance(e, cst.Element) and self.is_pure(e.value) for e in node.elements)
        if isinstance(node, cst.IfExp):
            return all(self.is_pure(p) for p in (node.test, node.body, node.orelse))
        if isinstance(node, cst.Call):
            return self._pure_call(node)
        return False

    def shape_key(self, node: cst.BaseExpression) -> frozenset[str] | None:
        """What the shape and dtype of `node` are made of: equal keys mean equal shapes and dtypes.

        Elementwise arithmetic unions the keys of its operands (broadcasting); Python numbers, shape
        dimensions and 0-d tensors add nothing; a cast or a comparison adds its dtype; anything else is an atom of its
        own source text (the same pure expression of the same names has the same shape).
        """
        if self.is_number(node) or _is_name(node, "True") or _is_name(node, "False"):
            return frozenset()
        if self.shape_dim(node) is not None:  # x.shape[0]: a Python int
            return frozenset()
        if self.is_scalar_tensor(node) and not isinstance(node, cst.Comparison):
            return frozenset()
        if isinstance(node, cst.BinaryOperation) and not isinstance(node.operator, cst.MatrixMultiply):
            return _union(self.shape_key(node.left), self.shape_key(node.right))
        if isinstance(node, cst.UnaryOperation) and not isinstance(node.operator, cst.Not):
            return self.shape_key(node.expression)
        if isinstance(node, cst.Comparison):
            keys = [self.shape_key(p) for p in _operands(node)]
            return _union(*keys, frozenset({"dtype:bool"})) if _is_value_comparison(node) else None
        if isinstance(node, cst.Call):
            return self._call_shape_key(node)
        if isinstance(node, cst.BooleanOperation | cst.IfExp | cst.Lambda):
            return None
        return frozenset({_atom(self.ctx, node)})

    # -- attributes of the Cell ---------------------------------------------------------------------

    def self_attribute(self, node: cst.BaseExpression) -> list[cst.BaseExpression]:
        """The values `self.<attr>` is set to in the methods of the current Cell (empty: unknown)."""
        cell = self.ctx.current.cell if self.ctx.current else None
        if cell is None or not is_self_attribute(node):
            return []
        stored = self.ctx.self_assignments(cell).get(node.attr.value, [])  # type: ignore[union-attr]
        return [a.value for a in stored if a.value is not UNKNOWN]  # type: ignore[misc]

    def primitive_of(self, func: cst.BaseExpression) -> str | None:
        """`ops.ReduceSum()` called, or `self.sum` set only to `ops.ReduceSum(...)`: the primitive's name."""
        values = [func] if isinstance(func, cst.Call) else self.self_attribute(func)
        names = {self._primitive_name(v) for v in values}
        return names.pop() if len(names) == 1 else None

    # -- internals ----------------------------------------------------------------------------------

    def _guarded(self, key: tuple[str, str], compute, on_cycle: bool) -> bool:
        """Resolve a name once at a time: `y = y * 2` refers to itself (decided by y's other bindings)."""
        if key in self._visiting:
            return on_cycle
        self._visiting.add(key)
        try:
            return compute()
        finally:
            self._visiting.discard(key)

    def _name_is_tensor(self, name: str) -> bool:
        index = self.index()
        bindings = index.bindings.get(name, [])
        if not bindings or name in index.polymorphic:
            return False
        first = bindings[0]
        return all(self._binding_is_tensor(name, b, b is first) for b in bindings)

    def _binding_is_tensor(self, name: str, binding: Binding, first: bool) -> bool:
        """By the bound value; the first binding also by how the name is used before it is rebound."""
        if binding.kind == "param":
            annotated = self._param_is_tensor(binding.node) and name not in self._doubtful()  # type: ignore[arg-type]
            return annotated or first and self._used_as_tensor(name)
        if binding.kind == "aug":
            return True  # `y += v` keeps what y's other bindings say
        if binding.kind == "value":
            by_value = self.is_tensor(binding.node)  # type: ignore[arg-type]
        elif binding.kind == "unpack":
            by_value = self._unpacks_tensors(binding.node, binding.position)  # type: ignore[arg-type]
        elif binding.kind == "iterate":
            by_value = self._iterates_tensors(binding.node)  # type: ignore[arg-type]
        else:
            return False
        return by_value or first and self._used_as_tensor(name)

    def _used_as_tensor(self, name: str) -> bool:
        index = self.index()
        passed_to = index.passed_to.get(name, ())
        return name in index.evidence or any(self._takes_tensor(func) for func in passed_to)

    def _doubtful(self) -> set[str]:
        """Names whose `Tensor` annotation ported code often gets wrong: lists a loop walks (`for c in x`,
        `enumerate(x)`) and flags tested for truth (`if output_attentions:`)."""
        index = self.index()
        names = set(index.truth_tested)
        for iterable in index.iterables:
            wrapped = isinstance(iterable, cst.Call) and self.is_builtin(iterable.func, ITERATORS)
            for node in [a.value for a in iterable.args] if wrapped else [iterable]:  # type: ignore[union-attr]
                if isinstance(node, cst.Name):
                    names.add(node.value)
        return names

    def _param_is_tensor(self, param: cst.Param) -> bool:
        """Annotated `Tensor`, `Parameter` or `Optional[Tensor]`, with no default but `None`."""
        if param.annotation is None or param.star:
            return False
        if param.default is not None and not _is_name(param.default, "None"):  # `x: Tensor = False` is a flag
            return False
        annotation = param.annotation.annotation
        if isinstance(annotation, cst.Subscript) and "typing.Optional" in self._qualified(annotation.value):
            annotation = annotation.slice[0].slice.value if len(annotation.slice) == 1 else annotation  # type: ignore[union-attr]
        return bool(self.ctx.names(annotation) & {"mindspore.Tensor", "mindspore.Parameter"})

    def _takes_tensor(self, func: cst.BaseExpression) -> bool:
        """A callable whose first argument must be a tensor: `ops.relu`, `self.conv`, `self.reshape`."""
        if self.op_name(func) in _TENSOR_FIRST_ARG_OPS or self._is_tensor_layer(func):
            return True
        return self.primitive_of(func) in _TENSOR_PRIMITIVES - {"Concat", "Stack"}

    def _unpacks_tensors(self, value: cst.BaseExpression, position: int) -> bool:
        if isinstance(value, cst.Tuple | cst.List):
            elements = value.elements
            return position < len(elements) and self.is_tensor(elements[position].value)
        return isinstance(value, cst.Call) and self.op_name(value.func) in _TENSOR_TUPLE_OPS

    def _iterates_tensors(self, iterable: cst.BaseExpression) -> bool:
        if isinstance(iterable, cst.Tuple | cst.List):
            return bool(iterable.elements) and all(
                not isinstance(e, cst.StarredElement) and self.is_tensor(e.value) for e in iterable.elements
            )
        if isinstance(iterable, cst.Call) and self.op_name(iterable.func) in _TENSOR_TUPLE_OPS:
            return True
        # a parameter annotated `Tensor` and looped over: a tensor's rows, or a list of tensors (its
        # annotation is in doubt, its elements are not)
        bindings = self.bindings(iterable.value) if isinstance(iterable, cst.Name) else []
        only_param = len(bindings) == 1 and bindings[0].kind == "param"
        return self.is_tensor(iterable) or only_param and self._param_is_tensor(bindings[0].node)  # type: ignore[arg-type]

    def _call_gives_tensor(self, call: cst.Call) -> bool:
        names = self.ctx.names(call.func)
        if names & TENSOR_MAKERS or INITIALIZER in names:
            return True
        short = self.op_name(call.func)
        if short is not None:
            return (
                short[:1].islower()
                and short not in _NOT_ONE_TENSOR
                and not any(a.keyword and a.keyword.value.startswith(_TUPLE_KEYWORDS) for a in call.args)
            )
        primitive = self.primitive_of(call.func)
        if primitive is not None:
            return primitive in _TENSOR_PRIMITIVES
        if self._is_tensor_layer(call.func):
            return True
        func = call.func
        if not isinstance(func, cst.Attribute) or not self.is_tensor(func.value):
            return False
        method = func.attr.value
        return method in TENSOR_METHODS or (method in ("max", "min") and not call.args)

    def _is_full_reduction(self, call: cst.Call) -> bool:
        func = call.func
        if len(call.args) > 1 or any(a.keyword is not None or a.star for a in call.args):
            return False
        if not call.args:  # x.mean()
            return (
                isinstance(func, cst.Attribute) and func.attr.value in _FULL_REDUCTIONS and self.is_tensor(func.value)
            )
        if not self.is_tensor(call.args[0].value):
            return False
        short = self.op_name(func)
        if short is not None:
            return short in _OPS_FULL_REDUCTIONS
        primitive = self.primitive_of(func)
        if primitive in _FULL_REDUCTION_PRIMITIVES:
            values = [func] if isinstance(func, cst.Call) else self.self_attribute(func)
            return all(_keeps_no_dims(v) for v in values)  # type: ignore[arg-type]
        return False

    def op_name(self, func: cst.BaseExpression) -> str | None:
        """`ops.relu` → "relu" for functions of ops/mint/mindspore.numpy; None for anything else."""
        for name in self.ctx.names(func):
            module, _, short = name.rpartition(".")
            if module in OP_MODULES:
                return short
        return None

    def _primitive_name(self, value: cst.BaseExpression) -> str | None:
        if not isinstance(value, cst.Call):
            return None
        short = self.op_name(value.func)
        return short if short is not None and short[:1].isupper() else None

    def _is_tensor_layer(self, func: cst.BaseExpression) -> bool:
        values = self.self_attribute(func)
        return bool(values) and all(isinstance(v, cst.Call) and self._is_layer_class(v.func) for v in values)

    def _is_layer_class(self, func: cst.BaseExpression) -> bool:
        names = self.ctx.names(func)
        return any(n.startswith("mindspore.nn.") and n.rpartition(".")[2] in _TENSOR_LAYERS for n in names)

    def _makes_tensor(self, value: cst.BaseExpression) -> bool:
        if not isinstance(value, cst.Call):
            return False
        names = self.ctx.names(value.func)
        if names & TENSOR_MAKERS or INITIALIZER in names:
            return True
        short = self.op_name(value.func)
        return short is not None and short[:1].islower() and short not in _NOT_ONE_TENSOR

    def is_host_numpy(self, node: cst.BaseExpression) -> bool:
        """`np.arange(4).reshape(...)`: a value made by host numpy (`numpy.*`, not `mindspore.numpy`)."""
        while isinstance(node, cst.Call | cst.Attribute | cst.Subscript):
            inner = node.func if isinstance(node, cst.Call) else node.value
            if any(n == "numpy" or n.startswith("numpy.") for n in self.ctx.names(inner)):
                return True
            node = inner
        return False

    def is_builtin(self, func: cst.BaseExpression, names: tuple[str, ...]) -> bool:
        return isinstance(func, cst.Name) and any(
            q.name in {f"builtins.{n}" for n in names} for q in qualified_names(self.ctx.qualified, func)
        )

    def _qualified(self, node: cst.BaseExpression) -> set[str]:
        return {q.name for q in qualified_names(self.ctx.qualified, node)}

    def _shape_source(self, node: cst.BaseExpression) -> cst.BaseExpression | None:
        """`x.shape` → x; `ops.shape(x)` → x; None otherwise."""
        if isinstance(node, cst.Attribute) and node.attr.value == "shape":
            is_self = isinstance(node.value, cst.Name) and node.value.value == "self"  # a Cell's config
            return None if is_self else node.value
        if isinstance(node, cst.Call) and self.op_name(node.func) == "shape" and len(node.args) == 1:
            return node.args[0].value
        return None

    def _binding_dim(self, binding: Binding) -> Dim | None:
        if binding.kind == "value":
            return self.shape_dim(binding.node)  # type: ignore[arg-type]
        if binding.kind == "unpack":  # B, C, H, W = x.shape; H, W = x.shape[2:]
            value = binding.node
            start = 0
            if isinstance(value, cst.Subscript):
                start = _slice_start(value)  # type: ignore[assignment]
                if start is None:
                    return None
                value = value.value
            source = self._shape_source(value)  # type: ignore[arg-type]
            return Dim(self.ctx.code(source), start + binding.position) if source is not None else None
        return None

    def _collect_dims(self, node: cst.CSTNode, found: list[Dim]) -> None:
        if isinstance(node, cst.BaseExpression):
            dim = self.shape_dim(node)
            if dim is not None:
                found.append(dim)
                return
            if isinstance(node, cst.Name):  # n = x.shape[0] // 2; range(n)
                key = ("dims", node.value)
                if key not in self._visiting:
                    self._visiting.add(key)
                    for binding in self.bindings(node.value):
                        if binding.kind == "value":
                            self._collect_dims(binding.node, found)  # type: ignore[arg-type]
                    self._visiting.discard(key)
                return
        for child in node.children:
            if not isinstance(node, cst.Attribute) or child is node.value:  # not the `.attr` name
                self._collect_dims(child, found)

    def _pure_call(self, call: cst.Call) -> bool:
        if not all(self.is_pure(a.value) for a in call.args):
            return False
        func = call.func
        if self.is_builtin(func, tuple(_PURE_BUILTINS)):
            return True
        if self.ctx.names(func) & TENSOR_CONSTRUCTORS:
            return True
        short = self.op_name(func)
        if short is None:
            short = self.primitive_of(func)
            if short is None and isinstance(func, cst.Call):
                return False
        if short is not None:
            return not any(fragment in short.lower() for fragment in _IMPURE_FRAGMENTS) and (
                not isinstance(func, cst.Call) or all(self.is_pure(a.value) for a in func.args)
            )
        # a method: of a tensor-valued receiver, never of `self` (a helper or a Cell may change state)
        return (
            isinstance(func, cst.Attribute)
            and not (isinstance(func.value, cst.Name) and func.value.value == "self")
            and (func.attr.value in TENSOR_METHODS or func.attr.value in ("max", "min"))
            and self.is_pure(func.value)
        )

    def _call_shape_key(self, call: cst.Call) -> frozenset[str] | None:
        func = call.func
        short = self.op_name(func)
        positional = [a.value for a in call.args if a.keyword is None and not a.star]
        if short == "cast" and len(positional) == 2:
            return _union(self.shape_key(positional[0]), frozenset({"dtype:" + self.ctx.code(positional[1])}))
        if short in ELEMENTWISE and len(positional) == len(call.args):
            return _union(*(self.shape_key(p) for p in positional))
        if isinstance(func, cst.Attribute) and self.is_tensor(func.value):
            method = func.attr.value
            receiver = self.shape_key(func.value)
            if method == "astype" and len(positional) == 1:
                return _union(receiver, frozenset({"dtype:" + self.ctx.code(positional[0])}))
            if method in CASTS and not call.args:
                return _union(receiver, frozenset({"dtype:" + method}))
            if method in ELEMENTWISE and len(positional) == len(call.args):
                return _union(receiver, *(self.shape_key(p) for p in positional))
        return frozenset({_atom(self.ctx, call)})


class _FunctionIndex(cst.CSTVisitor):
    """One pass over a graph function: the bindings of every local name, and how names are used.

    A use is evidence about a name's *first* binding (its parameter, or its first assignment) only while
    no other binding precedes it in source order: the first time such a use runs (loops included), the
    name still holds that value. Assignments bind when they are left, so `x = x.view(...)` reads the
    value before.
    """

    def __init__(self) -> None:
        super().__init__()
        self.bindings: dict[str, list[Binding]] = {}
        self.evidence: set[str] = set()  # names used as only a tensor can be
        self.passed_to: dict[str, list[cst.BaseExpression]] = {}  # name → what it is the 1st argument of
        self.polymorphic: set[str] = set()  # names passed to isinstance/type, or global/nonlocal
        self.iterables: list[cst.BaseExpression] = []  # what `for` loops and comprehensions iterate
        self.truth_tested: set[str] = set()  # names used as a truth value: `if flag:`, `not flag`, `flag and …`
        self._seen: dict[str, int] = {}  # bindings of each name so far, in source order

    @classmethod
    def of(cls, function: cst.FunctionDef) -> _FunctionIndex:
        index = cls()
        index._bind_params(function.params)
        function.body.visit(index)
        return index

    def _add(self, name: str, kind: str, node: cst.CSTNode | None, position: int = 0, size: int = 0) -> None:
        order = sum(len(b) for b in self.bindings.values())
        self.bindings.setdefault(name, []).append(Binding(kind, node, position, size, order))
        self._seen[name] = self._seen.get(name, 0) + 1

    def _bind_params(self, params: cst.Parameters) -> None:
        for param in (*params.posonly_params, *params.params, *params.kwonly_params):
            self._add(param.name.value, "param", param)
        for star in (params.star_arg, params.star_kwarg):
            if isinstance(star, cst.Param):
                self._add(star.name.value, "opaque", star)

    def _bind_target(self, target: cst.BaseExpression, value: cst.BaseExpression, kind: str = "value") -> None:
        if isinstance(target, cst.Name):
            self._add(target.value, kind, value)
            return
        if isinstance(target, cst.Tuple | cst.List):
            size = -1 if any(isinstance(e, cst.StarredElement) for e in target.elements) else len(target.elements)
            starred = False
            for position, element in enumerate(target.elements):
                starred |= isinstance(element, cst.StarredElement)
                inner = element.value
                if isinstance(inner, cst.Name) and not starred and kind == "value":
                    self._add(inner.value, "unpack", value, position, size)
                else:
                    for name in _names_in_target(inner):
                        self._add(name, "opaque", None)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._add(node.name.value, "opaque", None)
        for param in _all_params(node.params):
            self._add(param.name.value, "opaque", param)

    def visit_Lambda(self, node: cst.Lambda) -> None:
        for param in _all_params(node.params):
            self._add(param.name.value, "opaque", param)

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._add(node.name.value, "opaque", None)

    def leave_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._bind_target(target.target, node.value)

    def leave_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self._bind_target(node.target, node.value)
        elif isinstance(node.target, cst.Name):
            self._add(node.target.value, "opaque", None)

    def leave_AugAssign(self, node: cst.AugAssign) -> None:
        if isinstance(node.target, cst.Name):
            self._add(node.target.value, "aug", node.value)

    def leave_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._bind_target(node.target, node.value)

    def visit_For(self, node: cst.For) -> None:
        self._bind_iteration(node.target, node.iter)

    def visit_CompFor(self, node: cst.CompFor) -> None:
        self._bind_iteration(node.target, node.iter)

    def _bind_iteration(self, target: cst.BaseExpression, iterable: cst.BaseExpression) -> None:
        self.iterables.append(iterable)
        if isinstance(target, cst.Name):
            self._add(target.value, "iterate", iterable)
        else:
            for name in _names_in_target(target):
                self._add(name, "opaque", None)

    def _truth(self, node: cst.BaseExpression) -> None:
        if isinstance(node, cst.Name):
            self.truth_tested.add(node.value)

    def visit_If(self, node: cst.If) -> None:
        self._truth(node.test)

    def visit_While(self, node: cst.While) -> None:
        self._truth(node.test)

    def visit_IfExp(self, node: cst.IfExp) -> None:
        self._truth(node.test)

    def visit_BooleanOperation(self, node: cst.BooleanOperation) -> None:
        self._truth(node.left)
        self._truth(node.right)

    def visit_UnaryOperation(self, node: cst.UnaryOperation) -> None:
        if isinstance(node.operator, cst.Not):
            self._truth(node.expression)

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if node.asname is not None:
            for name in _names_in_target(node.asname.name):
                self._add(name, "opaque", None)

    def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        if node.name is not None:
            for name in _names_in_target(node.name.name):
                self._add(name, "opaque", None)

    def visit_Import(self, node: cst.Import) -> None:
        for alias in node.names:
            bound = alias.asname.name if alias.asname else alias.name
            for name in _names_in_target(bound):  # type: ignore[arg-type]
                self._add(name, "opaque", None)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if isinstance(node.names, cst.ImportStar):
            return
        for alias in node.names:
            bound = alias.asname.name if alias.asname else alias.name
            for name in _names_in_target(bound):  # type: ignore[arg-type]
                self._add(name, "opaque", None)

    def visit_Global(self, node: cst.Global) -> None:
        self.polymorphic.update(n.name.value for n in node.names)

    def visit_Nonlocal(self, node: cst.Nonlocal) -> None:
        self.polymorphic.update(n.name.value for n in node.names)

    def _use(self, name: cst.BaseExpression | None) -> str | None:
        """The name read, while it still holds the value of its first binding."""
        if isinstance(name, cst.Name) and self._seen.get(name.value) == 1:
            return name.value
        return None

    def visit_Attribute(self, node: cst.Attribute) -> None:
        name = self._use(node.value)
        if name is not None and node.attr.value in _EVIDENCE_ATTRIBUTES:
            self.evidence.add(name)

    def visit_Subscript(self, node: cst.Subscript) -> None:
        # x[:, 0], x[..., 1], x[None]: indexing lists and tuples takes one int or one slice
        multi = len(node.slice) > 1 and any(_is_array_index(e.slice) for e in node.slice)
        name = self._use(node.value)
        if name is not None and (multi or any(_is_none_or_ellipsis(e.slice) for e in node.slice)):
            self.evidence.add(name)

    def visit_Call(self, node: cst.Call) -> None:
        positional = [a.value for a in node.args if a.keyword is None and not a.star]
        first = positional[0] if positional and not node.args[0].star else None
        func = node.func
        if isinstance(func, cst.Name) and func.value in ("isinstance", "type"):
            self.polymorphic.update(n.value for n in positional[:1] if isinstance(n, cst.Name))
        name = self._use(first)
        if name is not None:
            self.passed_to.setdefault(name, []).append(func)


def _all_params(params: cst.Parameters) -> Iterator[cst.Param]:
    yield from (*params.posonly_params, *params.params, *params.kwonly_params)
    for star in (params.star_arg, params.star_kwarg):
        if isinstance(star, cst.Param):
            yield star


def _names_in_target(target: cst.CSTNode) -> list[str]:
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, cst.Tuple | cst.List):
        return [n for e in target.elements for n in _names_in_target(e.value)]
    if isinstance(target, cst.StarredElement):
        return _names_in_target(target.value)
    if isinstance(target, cst.Attribute):  # `import a.b` binds `a`
        return _names_in_target(target.value)
    return []


def _is_array_index(node: cst.CSTNode) -> bool:
    if isinstance(node, cst.Slice):
        return True
    return isinstance(node, cst.Index) and _is_none_or_ellipsis(node)


def _is_none_or_ellipsis(node: cst.CSTNode) -> bool:
    value = node.value if isinstance(node, cst.Index) else None
    return isinstance(value, cst.Ellipsis) or isinstance(value, cst.Name) and value.value == "None"


def _is_value_comparison(node: cst.Comparison) -> bool:
    """`<`, `==`, …: elementwise on tensors. `is`, `in` give Python bools."""
    return all(not isinstance(c.operator, cst.Is | cst.IsNot | cst.In | cst.NotIn) for c in node.comparisons)


def _operands(node: cst.BinaryOperation | cst.Comparison) -> list[cst.BaseExpression]:
    if isinstance(node, cst.BinaryOperation):
        return [node.left, node.right]
    return [node.left, *(c.comparator for c in node.comparisons)]


_NO_INDEX = object()


def _single_index(node: cst.Subscript) -> int | None | object:
    """`s[2]` → 2, `s[-1]` → -1, `s[k]` → None (a dimension, which one unknown); slices → _NO_INDEX."""
    if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
        return _NO_INDEX
    return _int_literal(node.slice[0].slice.value)


def _int_literal(node: cst.BaseExpression | None) -> int | None:
    """`2` → 2, `-1` → -1; None for anything else."""
    if isinstance(node, cst.Integer):
        return int(node.value)
    negative = isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus)
    if negative and isinstance(node.expression, cst.Integer):  # type: ignore[union-attr]
        return -int(node.expression.value)  # type: ignore[union-attr]
    return None


def _slice_start(node: cst.Subscript) -> int | None:
    """`s[2:]` → 2, `s[:2]` → 0; None for steps, negative or computed starts, and indices."""
    if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Slice):
        return None
    part = node.slice[0].slice
    if part.step is not None:
        return None
    start = 0 if part.lower is None else _int_literal(part.lower)
    return start if start is not None and start >= 0 else None


def _keeps_no_dims(primitive: cst.Call) -> bool:
    """`ops.ReduceSum()` or `ops.ReduceSum(keep_dims=False)`: a full reduction gives a 0-d tensor."""
    return all(
        (a.keyword is None or a.keyword.value == "keep_dims") and _is_name(a.value, "False") for a in primitive.args
    )


def _is_name(node: cst.BaseExpression, value: str) -> bool:
    return isinstance(node, cst.Name) and node.value == value


def _is_config_value(node: cst.BaseExpression) -> bool:
    """A value `__init__` stores that is a Python number: a literal, an argument, arithmetic of them."""
    if isinstance(node, cst.Integer | cst.Float | cst.Name):
        return not (isinstance(node, cst.Name) and node.value in ("None", "True", "False"))
    if isinstance(node, cst.UnaryOperation):
        return _is_config_value(node.expression)
    if isinstance(node, cst.BinaryOperation):
        return _is_config_value(node.left) and _is_config_value(node.right)
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value in ("float", "int"):
        return len(node.args) == 1 and _is_config_value(node.args[0].value)
    return False


def _union(*keys: frozenset[str] | None) -> frozenset[str] | None:
    if any(k is None for k in keys):
        return None
    return frozenset().union(*keys)  # type: ignore[arg-type]


def _atom(ctx: FileContext, node: cst.CSTNode) -> str:
    return "expr:" + " ".join(ctx.code(node).split())
