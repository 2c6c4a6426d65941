"""GM101 written as a plain libcst codemod: the baseline `make bench` times graphmend against.

One rule, the way libcst's own commands are written: a `VisitorBasedCodemodCommand` that resolves names
with `QualifiedNameProvider` and rewrites host numpy constructors in graph code to the `ops` constructor
with numpy's dtype, queueing the imports it needs with `AddImportsVisitor`:

    np.ones((b, n))                             ops.ones((b, n), mindspore.float64)
    ms.Tensor(np.zeros((b, n)), ms.float32)     ops.zeros((b, n), ms.float32)

Graph code is what GM101 looks at: `construct` (and the same-file methods it calls) of classes deriving
from `mindspore.nn.*` or from such a class of the same file, and functions decorated with `jit`.
A call whose dtype cannot be known, or with arguments `ops` has no equal for, is left alone.

libcst's runner finds the command through bench/.libcst.codemod.yaml (`modules: [bench]`), so it runs
from bench/ with the repository on PYTHONPATH (bench/run.py does this):

    cd bench && PYTHONPATH=.. ../.venv/bin/python -m libcst.tool codemod \\
        gm101_codemod.NumpyConstructorCommand --no-format --unified-diff --jobs 2 corpus/src
"""

from __future__ import annotations

import libcst as cst
from libcst.codemod import CodemodContext, VisitorBasedCodemodCommand
from libcst.codemod.visitors import AddImportsVisitor
from libcst.metadata import QualifiedNameProvider

# numpy constructor → (ops function, numpy's parameters in positional order)
_CONSTRUCTORS = {
    "ones": ("ones", ("shape", "dtype")),
    "zeros": ("zeros", ("shape", "dtype")),
    "empty": ("zeros", ("shape", "dtype")),
    "full": ("full", ("shape", "fill_value", "dtype")),
    "eye": ("eye", ("N", "M", "k", "dtype")),
    "arange": ("arange", ("start", "stop", "step", "dtype")),
    "ones_like": ("ones_like", ("a", "dtype")),
    "zeros_like": ("zeros_like", ("a", "dtype")),
}
_EQUAL = cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace(""))
_NUMPY_DTYPES = {"float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "bool_"}


class NumpyConstructorCommand(VisitorBasedCodemodCommand):
    DESCRIPTION = "Host numpy array constructors in graph code → the ops constructor with the same dtype."
    METADATA_DEPENDENCIES = (QualifiedNameProvider,)

    def __init__(self, context: CodemodContext) -> None:
        super().__init__(context)
        self._cells: set[str] = set()  # same-file classes known to be Cells
        self._scopes: list[cst.ClassDef | cst.FunctionDef] = []  # the classes and functions we are in
        self._graph_depth = 0  # > 0 inside graph code
        self._wrapped: set[int] = set()  # numpy calls wrapped in `Tensor(..., dtype)`
        self._called: set[str] = set()  # `self.helper(...)` names called anywhere in the file

    # -- where graph code is ----------------------------------------------------------------------

    def visit_Module(self, node: cst.Module) -> None:
        self._called = _self_calls(node)

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        if any(self._is_cell_base(arg.value) for arg in node.bases if arg.keyword is None):
            self._cells.add(node.name.value)
        self._scopes.append(node)

    def leave_ClassDef(self, original_node: cst.ClassDef, updated_node: cst.ClassDef) -> cst.ClassDef:
        self._scopes.pop()
        return updated_node

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        if self._graph_depth or self._is_graph_function(node):
            self._graph_depth += 1
        self._scopes.append(node)

    def leave_FunctionDef(self, original_node: cst.FunctionDef, updated_node: cst.FunctionDef) -> cst.FunctionDef:
        self._scopes.pop()
        if self._graph_depth:
            self._graph_depth -= 1
        return updated_node

    def _is_cell_base(self, base: cst.BaseExpression) -> bool:
        if isinstance(base, cst.Name) and base.value in self._cells:
            return True
        return any(name.startswith("mindspore.nn.") for name in self._names(base))

    def _is_graph_function(self, node: cst.FunctionDef) -> bool:
        for decorator in node.decorators:
            target = decorator.decorator.func if isinstance(decorator.decorator, cst.Call) else decorator.decorator
            if "mindspore.jit" in self._names(target):
                return True
        owner = self._scopes[-1] if self._scopes else None  # a method's class
        if not isinstance(owner, cst.ClassDef) or owner.name.value not in self._cells:
            return False
        return node.name.value == "construct" or node.name.value in self._called

    # -- the rewrite --------------------------------------------------------------------------------

    def visit_Call(self, node: cst.Call) -> None:
        if self._graph_depth and _wrapper_dtype(node) and "mindspore.Tensor" in self._names(node.func):
            self._wrapped.add(id(node.args[0].value))  # rewritten with the wrapper, which has the dtype

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if not self._graph_depth or id(original_node) in self._wrapped:
            return updated_node
        if id(original_node.args[0].value if original_node.args else None) in self._wrapped:
            # `Tensor(np.X(...), dtype)` → `ops.X(..., dtype)`
            inner = updated_node.args[0].value
            rewritten = self._rewrite(original_node.args[0].value, inner, _wrapper_dtype(original_node))
            return rewritten or updated_node
        return self._rewrite(original_node, updated_node, dtype=None) or updated_node

    def _rewrite(self, original: cst.Call, updated: cst.Call, dtype: cst.BaseExpression | None) -> cst.Call | None:
        numpy_names = [n.removeprefix("numpy.") for n in self._names(original.func) if n.startswith("numpy.")]
        numpy_name = numpy_names[0] if numpy_names else None
        if numpy_name not in _CONSTRUCTORS:
            return None
        target, params = _CONSTRUCTORS[numpy_name]
        args, original_args = _bind(updated, params), _bind(original, params)  # metadata is on the original
        if args is None or original_args is None or args.pop("k", None) is not None:
            return None
        given = original_args.get("dtype")
        args.pop("dtype", None)
        if dtype is None:  # a Tensor(...) wrapper's dtype wins over numpy's
            dtype = self._dtype(given) if given is not None else self._default_dtype(numpy_name, args)
        if dtype is None and not numpy_name.endswith("_like"):
            return None
        AddImportsVisitor.add_needed_import(self.context, "mindspore", "ops")
        values = [cst.Arg(value) for key, value in args.items() if key != "M" or numpy_name != "eye"]
        if numpy_name == "eye":
            values.append(cst.Arg(args.get("M", args["N"])))
        if dtype is not None:
            if numpy_name in ("full", "arange"):  # ops takes their dtype by keyword only
                values.append(cst.Arg(dtype, keyword=cst.Name("dtype"), equal=_EQUAL))
            else:
                values.append(cst.Arg(dtype))
        return cst.Call(cst.Attribute(cst.Name("ops"), cst.Name(target)), values)

    def _dtype(self, node: cst.BaseExpression) -> cst.BaseExpression | None:
        """numpy's dtype spelled as a MindSpore one (`np.float32` → `mindspore.float32`)."""
        for name in self._names(node):
            short = name.removeprefix("numpy.")
            if name.startswith("numpy.") and short in _NUMPY_DTYPES:
                return self._mindspore(short.rstrip("_"))
            if name.startswith("mindspore."):
                return node
        if isinstance(node, cst.SimpleString) and node.evaluated_value in _NUMPY_DTYPES:
            return self._mindspore(str(node.evaluated_value))
        return None

    def _default_dtype(self, numpy_name: str, args: dict[str, cst.BaseExpression]) -> cst.BaseExpression | None:
        if numpy_name.endswith("_like"):
            return None
        if numpy_name in ("full", "arange"):
            values = [args[k] for k in ("fill_value", "start", "stop", "step") if k in args]
            if all(isinstance(v, cst.Integer) for v in values):
                return self._mindspore("int64")
            if not all(isinstance(v, (cst.Integer, cst.Float)) for v in values):
                return None
        return self._mindspore("float64")

    def _mindspore(self, dtype: str) -> cst.BaseExpression:
        AddImportsVisitor.add_needed_import(self.context, "mindspore")
        return cst.Attribute(cst.Name("mindspore"), cst.Name(dtype))

    def _names(self, node: cst.CSTNode) -> set[str]:
        return {q.name for q in self.get_metadata(QualifiedNameProvider, node, set())}


def _self_calls(module: cst.Module) -> set[str]:
    """Names `n` of the `self.n(...)` calls anywhere in the file: the helpers construct may reach."""
    found: set[str] = set()

    class Calls(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            func = node.func
            if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == "self":
                found.add(func.attr.value)

    module.visit(Calls())
    return found


def _wrapper_dtype(call: cst.Call) -> cst.BaseExpression | None:
    """The dtype of `Tensor(np.X(...), dtype)`, if that is what `call` looks like."""
    if not call.args or call.args[0].keyword or not isinstance(call.args[0].value, cst.Call):
        return None
    return next((a.value for a in call.args[1:] if a.keyword is None or a.keyword.value == "dtype"), None)


def _bind(call: cst.Call, params: tuple[str, ...]) -> dict[str, cst.BaseExpression] | None:
    args: dict[str, cst.BaseExpression] = {}
    for i, arg in enumerate(call.args):
        if arg.star:
            return None
        key = arg.keyword.value if arg.keyword else (params[i] if i < len(params) else None)
        if key not in params:
            return None
        args[key] = arg.value
    return args
