"""What the host-data rules (GM102–GM106, GM202–GM204) need to know about values in graph code.

Whether an expression is a tensor, a shape, or a constant tensor cannot be known for sure from the
source; every guess of the family is made here, in one place, and leans towards "don't know":
a rule that does not know leaves the code alone.

- A *tensor*: the result of a MindSpore op (`ops.*`, `mint.*`, `mindspore.numpy.*`, a tensor method of
  a tensor), a `Tensor(...)`/`Parameter(...)` construction, an attribute the Cell's `__init__` sets to
  one, a parameter of `construct` with no default (the Cell's inputs), a parameter annotated `Tensor`,
  or a local name every binding of which is one of these.
- A *shape value*: `x.shape`, `x.shape[i]`, `ops.shape(x)`, `len(x)` of a tensor, and integer arithmetic
  on them.
  With a dynamic batch these are not compile-time constants.
"""

from __future__ import annotations

import libcst as cst
import libcst.matchers as m
from libcst.metadata import Assignment, FunctionScope

from codemods.rule import FileContext
from codemods.rules._tensor_facts import TENSOR_CONSTRUCTORS, TENSOR_MAKERS

_OP_MODULES = ("mindspore.ops.", "mindspore.mint.", "mindspore.numpy.")
_NOT_TENSOR_OPS = frozenset({"shape", "rank", "dtype", "typeof", "is_tensor", "isconstant", "print_"})
# Tensor methods that return a tensor (methods such as `asnumpy`, `item`, `tolist` do not).
_TENSOR_METHODS = frozenset({
    "abs", "argmax", "argmin", "astype", "broadcast_to", "ceil", "clamp", "clip", "copy", "cumsum",
    "exp", "expand_dims", "flatten", "float", "floor", "half", "int", "log", "matmul", "max", "mean",
    "min", "neg", "norm", "permute", "pow", "prod", "relu", "repeat", "reshape", "round", "sigmoid",
    "sign", "softmax", "sqrt", "square", "squeeze", "std", "sum", "tanh", "tile", "transpose",
    "unsqueeze", "var", "view",
})  # fmt: skip


class Values:
    """Answers about values in the graph function being visited; one per rule instance."""

    def __init__(self, ctx: FileContext) -> None:
        self.ctx = ctx
        self._names: dict[tuple[int, str], bool] = {}  # (scope, name) → every binding is a tensor
        self._resolving: set[tuple[int, str]] = set()

    # -- tensors ------------------------------------------------------------------------------------

    def is_tensor(self, node: cst.BaseExpression) -> bool:
        if isinstance(node, cst.Call):
            return self._call_gives_tensor(node)
        if isinstance(node, cst.Subscript):
            return self.is_tensor(node.value)
        if isinstance(node, cst.BinaryOperation):
            return self.is_tensor(node.left) or self.is_tensor(node.right)
        if isinstance(node, cst.UnaryOperation) and not isinstance(node.operator, cst.Not):
            return self.is_tensor(node.expression)
        if isinstance(node, cst.Attribute):
            values = self.cell_attribute(node)
            return bool(values) and all(self._makes_tensor(v) for v in values)
        if isinstance(node, cst.Name):
            return self._name_is_tensor(node)
        return False

    def is_constant_tensor(self, node: cst.BaseExpression) -> bool:
        """`Tensor(...)` written in the code, or `self.a` that `__init__` sets to one (not a Parameter)."""
        if isinstance(node, cst.Call):
            return bool(self.ctx.names(node.func) & TENSOR_CONSTRUCTORS)
        if isinstance(node, cst.Attribute):
            values = self.cell_attribute(node)
            return bool(values) and all(
                isinstance(v, cst.Call) and self.ctx.names(v.func) & TENSOR_CONSTRUCTORS for v in values
            )
        return False

    def is_host_numpy(self, node: cst.BaseExpression) -> bool:
        """A call of host numpy (`numpy.*`, not `mindspore.numpy`), or a method of its result."""
        while isinstance(node, cst.Call):
            if any(n == "numpy" or n.startswith("numpy.") for n in self.ctx.names(node.func)):
                return True
            if not isinstance(node.func, cst.Attribute):
                return False
            node = node.func.value
        return False

    def _call_gives_tensor(self, call: cst.Call) -> bool:
        names = self.ctx.names(call.func)
        if names & TENSOR_MAKERS:
            return True
        for name in names:
            if name.startswith(_OP_MODULES):
                short = name.rpartition(".")[2]
                return short[:1].islower() and short not in _NOT_TENSOR_OPS
        func = call.func
        return isinstance(func, cst.Attribute) and func.attr.value in _TENSOR_METHODS and self.is_tensor(func.value)

    def _makes_tensor(self, value: cst.BaseExpression) -> bool:
        return isinstance(value, cst.Call) and bool(self.ctx.names(value.func) & TENSOR_MAKERS)

    def _name_is_tensor(self, name: cst.Name) -> bool:
        scope = self.ctx.scopes.get(name)
        if scope is None:
            return False
        key = (id(scope), name.value)
        if key in self._names:
            return self._names[key]
        if key in self._resolving:
            return True  # `x = x + 1`: a tensor if its other bindings are; settled by the outer call
        self._resolving.add(key)
        known = set(self._names)
        assignments = list(scope[name.value])
        result = bool(assignments) and all(self._binding_is_tensor(a) for a in assignments)
        self._resolving.discard(key)
        if not result:  # answers given meanwhile assumed `name` was a tensor
            for stale in set(self._names) - known:
                del self._names[stale]
        self._names[key] = result
        return result

    def _binding_is_tensor(self, assignment) -> bool:
        if not isinstance(assignment, Assignment):
            return False
        node = assignment.node
        if isinstance(node, cst.Param):
            return self._param_is_tensor(node, assignment.scope)
        parent = self.ctx.parents.get(node)
        value = assigned_value(self.ctx, node)
        if value is None:  # += keeps what the other bindings say
            return isinstance(parent, cst.AugAssign)
        return self.is_tensor(value)

    def _param_is_tensor(self, param: cst.Param, scope) -> bool:
        annotation = param.annotation.annotation if param.annotation else None
        if annotation is not None:
            return "mindspore.Tensor" in self.ctx.names(annotation)
        function = scope.node if isinstance(scope, FunctionScope) else None
        is_construct = isinstance(function, cst.FunctionDef) and function.name.value == "construct"
        params = function.params.params if is_construct else ()
        # the Cell's inputs: construct's positional parameters without a default, after self,
        # unless the code checks their type (`if not ops.is_tensor(timestep): timestep = ms.tensor([timestep])`)
        is_input = param.default is None and any(p is param for p in params[1:])
        return is_input and not self._type_checked(function, param.name.value)  # type: ignore[arg-type]

    def _type_checked(self, function: cst.FunctionDef, name: str) -> bool:
        for call in m.findall(function, m.Call(args=[m.Arg(m.Name(name)), m.ZeroOrMore()])):
            func = call.func  # type: ignore[attr-defined]
            if isinstance(func, cst.Name) and func.value == "isinstance":
                return True
            if self.ctx.names(func) & {"mindspore.ops.is_tensor", "mindspore.ops.isinstance_"}:
                return True
        return False

    # -- shapes -------------------------------------------------------------------------------------

    def is_shape(self, node: cst.BaseExpression) -> bool:
        """A shape, a dimension, or integer arithmetic with at least one of them in it."""
        if isinstance(node, cst.Attribute):
            return node.attr.value == "shape"
        if isinstance(node, cst.Subscript):
            return self.is_shape(node.value)
        if isinstance(node, cst.Call):
            return self._is_len_of_tensor(node) or "mindspore.ops.shape" in self.ctx.names(node.func)
        if isinstance(node, cst.BinaryOperation):
            parts = (node.left, node.right)
            return any(self.is_shape(p) for p in parts) and all(self.is_shape(p) or is_int(p) for p in parts)
        if isinstance(node, cst.UnaryOperation):
            return self.is_shape(node.expression)
        return False

    def is_dimension(self, node: cst.BaseExpression) -> bool:
        """A single dimension (`x.shape[0]`, `len(x)`, `x.shape[1] * 2`), not a whole shape."""
        if isinstance(node, cst.Subscript):
            index = node.slice[0].slice if len(node.slice) == 1 else None
            return isinstance(index, cst.Index) and _is_shape_tuple(node.value)
        if isinstance(node, cst.Call):
            return self._is_len_of_tensor(node)
        if isinstance(node, cst.BinaryOperation):
            parts = (node.left, node.right)
            return any(self.is_dimension(p) for p in parts) and all(self.is_dimension(p) or is_int(p) for p in parts)
        if isinstance(node, cst.UnaryOperation):
            return self.is_dimension(node.expression)
        return False

    def _is_len_of_tensor(self, node: cst.Call) -> bool:
        """`len(x)` of a tensor is its batch size; `len(self.layers)` of a Python list is a constant."""
        is_len = isinstance(node.func, cst.Name) and node.func.value == "len" and len(node.args) == 1
        return is_len and self.is_tensor(node.args[0].value)

    def is_shape_tuple(self, node: cst.BaseExpression) -> bool:
        """`x.shape`, `x.shape[1:]`, `ops.shape(x)`."""
        if isinstance(node, cst.Call):
            return "mindspore.ops.shape" in self.ctx.names(node.func)
        return _is_shape_tuple(node)

    # -- attributes of the Cell ---------------------------------------------------------------------

    def cell_attribute(self, node: cst.Attribute) -> list[cst.BaseExpression]:
        """The values `self.<attr>` is set to in the methods of the current Cell (empty: unknown)."""
        cell = self.ctx.current.cell if self.ctx.current else None
        if cell is None or not (isinstance(node.value, cst.Name) and node.value.value == "self"):
            return []
        return self.attributes(cell).get(node.attr.value, [])

    def attributes(self, cell: cst.ClassDef) -> dict[str, list[cst.BaseExpression]]:
        """`self.<attr> = value` in every method of `cell` other than `construct`, by attribute."""
        found: dict[str, list[cst.BaseExpression]] = {}
        for name, assignments in self.ctx.self_assignments(cell).items():
            for a in assignments:
                if a.method != "construct" and not isinstance(a.value, cst.AugAssign):
                    found.setdefault(name, []).append(a.value)
        return found


def assigned_value(ctx: FileContext, target: cst.CSTNode) -> cst.BaseExpression | None:
    """The value of `target = value` (a single target, no unpacking); None for any other binding."""
    parent = ctx.parents.get(target)
    if isinstance(parent, cst.AssignTarget):
        statement = ctx.parents.get(parent)
        if isinstance(statement, cst.Assign) and len(statement.targets) == 1:
            return statement.value
    if isinstance(parent, cst.AnnAssign) and parent.target is target:
        return parent.value
    return None


def is_int(node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.UnaryOperation):
        return is_int(node.expression)
    return isinstance(node, cst.Integer)


def _is_shape_tuple(node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.Attribute):
        return node.attr.value == "shape"
    if isinstance(node, cst.Subscript) and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Slice):
        return _is_shape_tuple(node.value)
    return False
