"""The words graphmend knows MindSpore by: op modules, tensor constructors, tensor methods, layers.

Every list is here once, and `graphmend.values` is the only reader that decides what a value is with
them; rules that need a list (GM402's elementwise ops) import it from here.
"""

from __future__ import annotations

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
NOT_ONE_TENSOR = frozenset({
    "split", "chunk", "unbind", "unstack", "tensor_split", "array_split", "vsplit", "hsplit", "dsplit",
    "meshgrid", "broadcast_tensors", "atleast_1d", "atleast_2d", "atleast_3d", "topk", "top_k", "sort", "max", "min",
    "aminmax", "median", "mode", "kthvalue", "cummax", "cummin", "unique", "unique_with_pad", "std_mean",
    "var_mean", "frexp", "svd", "qr", "eig", "eigh", "slogdet", "lu", "lu_unpack", "lstsq", "geqrf",
    "histogram", "shape", "rank", "size", "numel", "dtype", "typeof", "is_tensor", "is_floating_point",
    "is_complex", "isconstant", "grad", "value_and_grad", "vjp", "jvp", "vmap", "print_", "depend",
    "stop_gradient", "ctc_loss", "ctc_greedy_decoder", "fractional_max_pool2d", "fractional_max_pool3d",
    "where_",
})  # fmt: skip
# keywords that turn a tensor-returning op into a tuple-returning one
TUPLE_KEYWORDS = ("return_", "as_tuple", "with_indices")
# ops whose result is a tuple of tensors (unpacking or iterating it gives tensors)
TENSOR_TUPLE_OPS = frozenset({
    "split", "chunk", "unbind", "unstack", "tensor_split", "meshgrid", "topk", "top_k", "sort",
})  # fmt: skip

# Tensor methods that return one tensor (`max`/`min` only as numpy's overload, values._numpy_overload: `x.max(1)`
# is a tuple)
TENSOR_METHODS = frozenset({
    "abs", "add", "all", "any", "argmax", "argmin", "astype", "bool", "broadcast_to", "ceil", "clamp", "clip",
    "contiguous", "copy", "cos", "cumprod", "cumsum", "div", "double", "eq", "exp", "expand_as", "expand_dims",
    "flatten", "float", "floor", "gather", "ge", "gt", "half", "index_select", "int", "le", "log", "log1p",
    "logical_not", "long", "lt", "masked_fill", "matmul", "mean", "mul", "ne", "neg", "nonzero", "norm",
    "permute", "pow", "prod", "reciprocal", "relu", "repeat", "reshape", "round", "rsqrt", "sigmoid", "sign", "sin",
    "softmax", "sqrt", "square", "squeeze", "std", "sub", "sum", "swapaxes", "t", "tanh", "tile",
    "transpose", "tril", "triu", "unsqueeze", "var", "view",
})  # fmt: skip
FULL_REDUCTIONS = frozenset({
    "mean", "sum", "max", "min", "prod", "all", "any", "std", "var", "norm", "amax", "amin",
})  # fmt: skip
OPS_FULL_REDUCTIONS = frozenset({
    "reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod", "reduce_all", "reduce_any",
    "sum", "mean", "prod", "all", "any", "amax", "amin", "norm",
})  # fmt: skip
# Using a parameter so is evidence that it is a tensor (lists, tuples and dicts have none of these)
EVIDENCE_ATTRIBUTES = (TENSOR_METHODS | {"shape", "dtype", "ndim", "T", "asnumpy", "tolist", "item", "max", "min"}) - {
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
TENSOR_FIRST_ARG_OPS = frozenset({
    "abs", "exp", "log", "sqrt", "rsqrt", "sigmoid", "tanh", "relu", "relu6", "gelu", "silu", "softmax",
    "log_softmax", "reshape", "transpose", "permute", "flatten", "expand_dims", "squeeze", "unsqueeze",
    "reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "matmul", "bmm", "gather", "tile",
    "broadcast_to", "interpolate", "pad", "cast", "clip_by_value", "clamp", "masked_fill", "swapaxes",
    "square", "neg", "floor", "ceil", "sign", "l2_normalize", "dense", "conv2d", "layer_norm", "split",
    "chunk", "unbind", "unstack",
})  # fmt: skip
# Primitives (ops.ReduceSum and friends) known to return one tensor
TENSOR_PRIMITIVES = frozenset({
    "ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceAll", "ReduceAny", "Reshape",
    "Transpose", "Concat", "Stack", "Cast", "ExpandDims", "Squeeze", "Mul", "Add", "Sub", "Div", "RealDiv",
    "MatMul", "BatchMatMul", "Softmax", "LogSoftmax", "Sigmoid", "ReLU", "ReLU6", "Tanh", "Exp", "Log",
    "Sqrt", "Rsqrt", "Square", "Abs", "Neg", "Maximum", "Minimum", "Pow", "Select", "Equal", "Greater",
    "Less", "GreaterEqual", "LessEqual", "NotEqual", "LogicalAnd", "LogicalOr", "LogicalNot", "Tile",
    "BroadcastTo", "Gather", "GatherD", "GatherNd", "OneHot", "ZerosLike", "OnesLike", "Flatten",
    "StridedSlice", "Slice", "Sign", "Floor", "Ceil", "Erf", "L2Normalize", "Argmax", "CumSum", "Pad",
})  # fmt: skip
FULL_REDUCTION_PRIMITIVES = frozenset({
    "ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceAll", "ReduceAny",
})  # fmt: skip
# nn layers that map one tensor to one tensor
TENSOR_LAYERS = frozenset({
    "Dense", "Conv1d", "Conv2d", "Conv3d", "Conv1dTranspose", "Conv2dTranspose", "Conv3dTranspose",
    "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LayerNorm", "GroupNorm", "InstanceNorm1d",
    "InstanceNorm2d", "InstanceNorm3d", "ReLU", "ReLU6", "GELU", "SiLU", "Sigmoid", "Tanh", "Softmax",
    "LogSoftmax", "LeakyReLU", "PReLU", "HSwish", "HSigmoid", "Mish", "ELU", "Dropout", "MaxPool1d",
    "MaxPool2d", "AvgPool1d", "AvgPool2d", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveMaxPool2d",
    "Flatten", "Embedding", "PixelShuffle", "Upsample",
})  # fmt: skip
# Calls that draw random numbers or change state: never duplicated, reordered or dropped
IMPURE_FRAGMENTS = (
    "rand", "uniform", "normal", "multinomial", "bernoulli", "shuffle", "gamma", "poisson", "laplace",
    "dropout", "gumbel", "sampler", "assign", "scatter", "print", "depend", "choice",
)  # fmt: skip
PURE_BUILTINS = frozenset({"len", "abs", "min", "max", "float", "int", "bool"})
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
# ops whose result is bool whatever their inputs (`ops.logical_and(a, b)`), and ops or methods that only move or
# copy their input's items (a bool tensor stays one): Values.is_bool_tensor
BOOL_RESULT_OPS = frozenset({
    "logical_and", "logical_or", "logical_not", "logical_xor", "isnan", "isinf", "isfinite", "isclose", "equal",
    "not_equal", "greater", "greater_equal", "less", "less_equal", "gt", "ge", "lt", "le", "eq", "ne",
})  # fmt: skip
ITEM_MOVING_OPS = frozenset({
    "tile", "expand_dims", "unsqueeze", "squeeze", "reshape", "view", "transpose", "permute", "broadcast_to",
    "swapaxes", "flatten", "repeat_interleave", "stop_gradient",
})  # fmt: skip


# attributes that are never tensors (a tuple, a dtype, an int, a flag, a device)
NOT_TENSOR_ATTRIBUTES = frozenset({"shape", "dtype", "ndim", "size", "training", "device"})
# methods whose result is a Python value or a numpy array, never a tensor
HOST_VALUE_METHODS = frozenset({"asnumpy", "numpy", "tolist", "item", "size", "dim", "numel"})
# MindSpore functions outside the op modules whose result is a Python value, not a tensor
NOT_TENSOR_MODULES = ("mindspore.mint.distributed", "mindspore.communication", "mindspore.context")
NOT_TENSOR_FUNCTIONS = frozenset({"mindspore.get_context", "mindspore.get_auto_parallel_context"})
# ops that return a Python value (a shape, a rank, a dtype, a flag), never a tensor
PYTHON_VALUE_OPS = frozenset({
    "shape", "rank", "dtype", "typeof", "is_tensor", "isinstance_", "isconstant", "is_floating_point",
    "is_complex", "size", "numel", "get_grad",
})  # fmt: skip
# builtins whose result is never a tensor (`max`, `min`, `abs`, `sum` of tensors are tensors)
HOST_BUILTINS = (
    "len", "int", "float", "bool", "str", "repr", "list", "tuple", "dict", "set", "frozenset", "range",
    "enumerate", "zip", "reversed", "sorted", "isinstance", "issubclass", "type", "hasattr", "callable",
    "id", "hash", "print", "format", "any", "all",
)  # fmt: skip


# MindSpore re-exports the same object under several module paths; rules compare canonical names.
_ALIASES: tuple[tuple[str, str], ...] = (
    ("mindspore.common.tensor.Tensor", "mindspore.Tensor"),
    ("mindspore.common.Tensor", "mindspore.Tensor"),
    ("mindspore.common.parameter.Parameter", "mindspore.Parameter"),
    ("mindspore.common.Parameter", "mindspore.Parameter"),
    ("mindspore.common.dtype", "mindspore"),
    ("mindspore.dtype", "mindspore"),
    ("mindspore.common.api.jit", "mindspore.jit"),
    ("mindspore.common.jit", "mindspore.jit"),
    ("mindspore.common.api.ms_function", "mindspore.jit"),
    ("mindspore.ms_function", "mindspore.jit"),
    ("mindspore.nn.cell.Cell", "mindspore.nn.Cell"),
    ("mindspore.ops.function", "mindspore.ops"),
    ("mindspore.ops.functional", "mindspore.ops"),
    ("mindspore.context", "mindspore"),
)


def canonical(name: str) -> str:
    """The canonical spelling of a qualified name (`mindspore.common.dtype.float32` → `mindspore.float32`)."""
    for alias, target in _ALIASES:
        if name == alias or name.startswith(alias + "."):
            return target + name[len(alias) :]
    return name


# mindspore.nn layers that create Parameters when built (GM206): built in graph code, export fails
PARAMETER_LAYERS = frozenset({
    "Dense", "BiDense", "Conv1d", "Conv2d", "Conv3d", "Conv1dTranspose", "Conv2dTranspose", "Conv3dTranspose",
    "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "GroupNorm", "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d",
    "LayerNorm", "Embedding", "EmbeddingLookup", "PReLU", "RNN", "GRU", "LSTM", "RNNCell", "GRUCell", "LSTMCell",
    "MultiheadAttention", "Transformer", "TransformerEncoder", "TransformerDecoder", "TransformerEncoderLayer",
    "TransformerDecoderLayer",
})  # fmt: skip
