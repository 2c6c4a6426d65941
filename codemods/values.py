"""What graphmend assumes about values in graph code: one model, asked by every rule (`ctx.values`).

Whether a value is a tensor cannot be known for sure from the source. `Values.tensor(node)` answers
KNOWN, MAYBE or NOT, and each rule reads that answer with its `Caution`: CERTAIN (KNOWN only) where a
fix or a report would be wrong for anything else (`len(x)` → `x.shape[0]` breaks on a list), POSSIBLE
(anything not NOT) where the pattern itself is evidence (a torch method name such as `x.size(0)`).
Every other question (a shape dimension, a Python int, host numpy, what `self.attr` holds) is answered
from the same tensor answer, so no two rules see the same `len(x)` two ways.

- KNOWN, a *tensor*:
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
    `ops.relu(x)`. Such uses cannot tell a tensor from a host numpy array; `len(a)` and `a.shape[0]`
    agree on both;
  - a helper's parameter that every call of the helper in the file passes a tensor for from graph code
    (`passed`: `self.helper(x)` from the same Cell, `helper(x)` of a module function; any other call of the
    name, or one outside graph code, and the parameter is only what its uses say);
  - a local name every binding of which is one of these (flow-insensitive), never a name passed to
    `isinstance`/`type`/`ops.is_tensor` (the code itself does not know).
- MAYBE: a parameter of `construct` with nothing of the above is the Cell's input, but not always a
  tensor: detection heads and necks take lists of feature maps (`for i in range(len(x))`). Also
  `self.attr` set from an `__init__` argument, a method of an unknown object, anything unknown.
- NOT: Python literals and containers, `None`/`True`/`False`, `self`, names bound by imports (`np`,
  `ops`), builtins and their results (`len(x)`, `int(t)`, `range(n)`), `x.shape`/`x.dtype`/`self.training`,
  `.item()`/`.asnumpy()`/`.tolist()`, calls of a non-MindSpore import (host numpy) or of a MindSpore
  function that returns a Python value (`ops.shape(x)`, `mint.distributed.is_available()`), an
  `nn.Dense(...)` (a Cell), an instance of a class of the file, `self.attr` that stores only such
  values (`self.layers = nn.CellList(...)`), and a local name every binding of which is one of these.
- A *0-d tensor* (needed before a condition may become `ops.where`): a full reduction (`x.mean()`,
  `ops.reduce_sum(m)`) and arithmetic or comparisons of 0-d tensors with Python numbers.
- A *shape dimension*: `x.shape[k]`, `ops.shape(x)[k]`, `len(t)` of a KNOWN tensor (dimension 0), names
  unpacked from or bound to them, and integer arithmetic on them. With a dynamic batch these are not
  compile-time constants.
- A *Python int*: a literal, `len(...)`, `int(...)`, a dimension, integer arithmetic on them.
- *Host numpy*: a value made by `numpy.*` (not `mindspore.numpy`), or a method or item of one.
- A *bool tensor* (`is_bool_tensor`): a comparison of tensors, a cast or `logical_*` op to bool, `& | ^ ~`
  of them, what only moves their items, a local name every binding of which is one, and a helper's
  parameter that every call of the helper in the file passes one from graph code (`passed`).
- A *Python list*: a list display or comprehension, `list(...)`, or a local name every binding of which
  is one of these or another such name; `list_aliases` names the other locals bound to the same list.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import libcst as cst
from libcst.metadata import BuiltinAssignment

from graphmend.bindings import Binding, FunctionIndex
from graphmend.names import qualified_names
from graphmend.scopes import UNKNOWN, is_self_attribute
from graphmend.tree import find, single_assign, target_names
from graphmend.vocabulary import (
    BOOL_RESULT_OPS,
    CASTS,
    ELEMENTWISE,
    FULL_REDUCTION_PRIMITIVES,
    FULL_REDUCTIONS,
    HOST_BUILTINS,
    HOST_VALUE_METHODS,
    IMPURE_FRAGMENTS,
    INITIALIZER,
    ITEM_MOVING_OPS,
    ITERATORS,
    NOT_ONE_TENSOR,
    NOT_TENSOR_ATTRIBUTES,
    NOT_TENSOR_FUNCTIONS,
    NOT_TENSOR_MODULES,
    OP_MODULES,
    OPS_FULL_REDUCTIONS,
    PURE_BUILTINS,
    PYTHON_VALUE_OPS,
    TENSOR_CONSTRUCTORS,
    TENSOR_FIRST_ARG_OPS,
    TENSOR_LAYERS,
    TENSOR_MAKERS,
    TENSOR_METHODS,
    TENSOR_PRIMITIVES,
    TENSOR_TUPLE_OPS,
    TUPLE_KEYWORDS,
)

if TYPE_CHECKING:
    from graphmend.rule import FileContext
    from graphmend.scopes import GraphFunction


class Answer(enum.Enum):
    """Whether a value is a tensor."""

    KNOWN = "known"  # it is one (the module docstring says when)
    MAYBE = "maybe"  # nothing rules it out
    NOT = "not"  # it is something else: a literal, a module, a shape, a Python value, a Cell


KNOWN, MAYBE, NOT = Answer.KNOWN, Answer.MAYBE, Answer.NOT


class Caution(enum.Enum):
    """How sure a rule must be that a value is a tensor before it acts (a policy, not another model)."""

    CERTAIN = "certain"  # KNOWN only: the rule's fix or report is wrong for anything else
    POSSIBLE = "possible"  # not NOT: the pattern itself is evidence (a torch method name in graph code)


_LITERALS = (
    cst.List, cst.Tuple, cst.Dict, cst.Set, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp,
    cst.SimpleString, cst.ConcatenatedString, cst.FormattedString, cst.Integer, cst.Float, cst.Imaginary,
    cst.Lambda,
)  # fmt: skip
_CONTAINERS = (cst.List, cst.Tuple, cst.Dict, cst.Set, cst.ListComp, cst.SetComp, cst.DictComp)
_MAX_DEPTH = 8
_NO_FUNCTION = FunctionIndex()


@dataclass(frozen=True)
class Dim:
    """A shape dimension an expression depends on: `x.shape[k]` → (`x`, k); k is None when not a literal."""

    tensor: str
    index: int | None

    def described(self) -> str:
        """For messages: "dimension 0 of `x` (the batch, for a batched tensor)", "dimension -1 (from the end)
        of `x`", "a dimension of `x`"."""
        if self.index == 0:
            return f"dimension 0 of `{self.tensor}` (the batch, for a batched tensor)"
        if self.index is None:
            return f"a dimension of `{self.tensor}`"
        where = " (from the end)" if self.index < 0 else ""
        return f"dimension {self.index}{where} of `{self.tensor}`"


class Values:
    """Answers about values in the file being analysed; one per file (`ctx.values`), shared by every rule."""

    def __init__(self, ctx: FileContext) -> None:
        self.ctx = ctx
        self._functions: dict[int, FunctionIndex] = {}
        self._visiting: set[tuple[str, str]] = set()
        self._class_names: set[str] | None = None
        self._names: dict[tuple[int, str], bool] = {}  # (function index, name) → `_known`, see `_name_known`
        self._calls: dict[str, list[tuple[GraphFunction | None, cst.Call]]] | None = None  # see `_calls_named`
        self._passing: set[int] = set()  # the parameters whose callers are being asked, see `_passed_tensors`

    # -- bindings -----------------------------------------------------------------------------------

    def index(self) -> FunctionIndex:
        """The bindings of the graph function being visited (none outside graph code: a Cell's body)."""
        if self.ctx.current is None:
            return _NO_FUNCTION
        function = self.ctx.current.node
        found = self._functions.get(id(function))
        if found is None:
            found = self._functions[id(function)] = FunctionIndex.of(function)
        return found

    def bindings(self, name: str) -> list[Binding]:
        return self.index().bindings.get(name, [])

    # -- tensors ------------------------------------------------------------------------------------

    def tensor(self, node: cst.BaseExpression) -> Answer:
        """Whether `node` is a tensor: KNOWN, MAYBE (nothing rules it out), or NOT."""
        if self._known(node):
            return KNOWN
        return NOT if self._ruled_out(node, 0) else MAYBE

    def is_tensor(self, node: cst.BaseExpression, caution: Caution = Caution.CERTAIN) -> bool:
        """`tensor(node)` read with a rule's caution: KNOWN only, or anything not ruled out."""
        answer = self.tensor(node)
        return answer is KNOWN or caution is Caution.POSSIBLE and answer is MAYBE

    def is_constant_tensor(self, node: cst.BaseExpression) -> bool:
        """`Tensor(...)` written in the code, or `self.a` that `__init__` sets to one (not a Parameter)."""
        if isinstance(node, cst.Call):
            return bool(self.ctx.names(node.func) & TENSOR_CONSTRUCTORS)
        cell = self.ctx.current.cell if self.ctx.current else None
        if cell is None or not is_self_attribute(node):
            return False
        values = self.attributes(cell).get(node.attr.value, [])  # type: ignore[attr-defined]
        return bool(values) and all(
            isinstance(v, cst.Call) and self.ctx.names(v.func) & TENSOR_CONSTRUCTORS for v in values
        )

    def _known(self, node: cst.BaseExpression) -> bool:
        """A tensor for certain (the module docstring's list)."""
        if isinstance(node, cst.Name):
            return self._name_known(node.value)
        if isinstance(node, cst.Attribute):
            if node.attr.value in ("T", "mT", "real", "imag"):
                return self._known(node.value)
            values = self.self_attribute(node)
            return bool(values) and all(self._makes_tensor(v) for v in values)
        if isinstance(node, cst.Subscript):
            return self._known(node.value)
        if isinstance(node, cst.Call):
            return self._call_gives_tensor(node)
        if isinstance(node, cst.BinaryOperation):
            return self._known(node.left) or self._known(node.right)
        if isinstance(node, cst.UnaryOperation):
            return not isinstance(node.operator, cst.Not) and self._known(node.expression)
        if isinstance(node, cst.Comparison):
            return _is_value_comparison(node) and any(self._known(n) for n in _operands(node))
        if isinstance(node, cst.IfExp):
            return self._known(node.body) and self._known(node.orelse)
        return False

    def is_bool_tensor(self, node: cst.BaseExpression, depth: int = 0) -> bool:
        """A tensor of bools for certain: a comparison of tensors, a cast or `logical_*` op to bool, `&`, `|`, `^`
        and `~` of them, and what only moves their items (`ops.tile`, `expand_dims`, `reshape`, a subscript…);
        a local name bound only to one of them."""
        if depth > _MAX_DEPTH:
            return False
        if isinstance(node, cst.Comparison):
            return _is_value_comparison(node) and self.is_tensor(node)
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.BitInvert):
            return self.is_bool_tensor(node.expression, depth + 1)
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.BitAnd | cst.BitOr | cst.BitXor):
            return self.is_bool_tensor(node.left, depth + 1) and self.is_bool_tensor(node.right, depth + 1)
        if isinstance(node, cst.Subscript):
            return self.is_bool_tensor(node.value, depth + 1)
        if isinstance(node, cst.Name):
            bindings = self.bindings(node.value)
            return bool(bindings) and all(self._binding_is_bool(b, depth + 1) for b in bindings)
        if not isinstance(node, cst.Call) or not node.args or any(a.star for a in node.args):
            return False
        names = {n.rpartition(".")[2] for n in self.ctx.names(node.func) if n.startswith("mindspore.ops.")}
        if names & BOOL_RESULT_OPS:
            return True
        if "cast" in names and len(node.args) == 2:
            return self._is_bool_dtype(node.args[1].value)
        if names & ITEM_MOVING_OPS:
            return self.is_bool_tensor(node.args[0].value, depth + 1)
        if isinstance(node.func, cst.Attribute) and not names:
            method = node.func.attr.value
            if method in ("astype", "to") and len(node.args) == 1:
                return self._is_bool_dtype(node.args[0].value) and self.is_tensor(node.func.value)
            if method == "bool" and not node.args:
                return self.is_tensor(node.func.value)
            if method in ITEM_MOVING_OPS:
                return self.is_bool_tensor(node.func.value, depth + 1)
        return False

    def _binding_is_bool(self, binding: Binding, depth: int) -> bool:
        if binding.kind == "value":
            return self.is_bool_tensor(binding.node, depth)  # type: ignore[arg-type]
        if binding.kind != "param":
            return False
        passed = self.passed(binding.node)  # type: ignore[arg-type]
        return bool(passed) and all(self.within(caller, lambda v=value: self.is_bool_tensor(v, depth))
                                    for caller, value in passed)  # fmt: skip

    # -- a helper's parameters, from its callers ---------------------------------------------------

    def passed(self, param: cst.Param) -> list[tuple[GraphFunction, cst.BaseExpression]]:
        """What each call of the graph function being visited passes for its `param`, with the graph
        function the call is in: for a method of the Cell called as `self.name(...)`, or a module-level
        function called by name, when every call of that name in the file is in graph code (outside a
        nested function) and passes `param`. Empty otherwise: a call graphmend cannot see (another file,
        a call without `param`, which leaves its default) would make any answer a guess."""
        current = self.ctx.current
        if current is None or current.node.decorators:  # a staticmethod, a jit function: called from anywhere
            return []
        function = current.node
        params = function.params
        positional = [p.name.value for p in (*params.posonly_params, *params.params)]
        if current.cell is not None:
            if not positional or positional[0] != "self":
                return []
            positional = positional[1:]
        name = param.name.value
        if param.star or name not in positional + [p.name.value for p in params.kwonly_params]:
            return []
        found: list[tuple[GraphFunction, cst.BaseExpression]] = []
        calls = self._calls_named(function.name.value)
        for caller, call in calls:
            # `self.name(...)` of the same Cell, or `name(...)` of a module function; any other call of the name
            # (`other.name(...)`, `self.name` in another class) may be another function, or this one
            if current.cell is not None:
                ours = is_self_attribute(call.func) and caller is not None and caller.cell is current.cell
            else:
                ours = isinstance(call.func, cst.Name)
            if caller is None or not ours:
                return []
            value = _argument(call, positional, name)
            if value is None:
                return []
            found.append((caller, value))
        return found

    def _passed_tensors(self, param: cst.Param) -> bool:
        """Every call of the helper passes a tensor for certain for `param` (`passed`); a helper met again
        while its callers are asked about (recursion) gives no answer."""
        if id(param) in self._passing:
            return False
        self._passing.add(id(param))
        try:
            passed = self.passed(param)
            return bool(passed) and all(self.within(caller, lambda v=value: self._known(v)) for caller, value in passed)
        finally:
            self._passing.discard(id(param))

    def within(self, function: GraphFunction, question: Callable[[], bool]) -> bool:
        """`question` asked about a value of another graph function of the file (a caller's argument)."""
        saved = self.ctx.current, self._visiting
        # names of the other function are its own (a fresh guard), and what is found there is not kept: an
        # answer cut short by recursion (`_passing`) must not stand for the name later
        self.ctx.current, self._visiting = function, {("within", "")}
        try:
            return question()
        finally:
            self.ctx.current, self._visiting = saved

    def _calls_named(self, name: str) -> list[tuple[GraphFunction | None, cst.Call]]:
        """Every call `name(...)` or `<x>.name(...)` in the file, with the graph function it is directly in
        (None: outside graph code, or in a function, lambda or class nested in it)."""
        if self._calls is None:
            self._calls = {}
            graph = {id(f.node): f for f in self.ctx.graph_functions}
            for inner, call in self.ctx.calls:
                func = call.func
                key = func.value if isinstance(func, cst.Name) else getattr(getattr(func, "attr", None), "value", None)
                if key is not None:
                    self._calls.setdefault(key, []).append((graph.get(id(inner)), call))
        return self._calls.get(name, [])

    def _is_bool_dtype(self, node: cst.BaseExpression) -> bool:
        return "mindspore.bool_" in self.ctx.names(node)

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

    def is_list(self, node: cst.BaseExpression) -> bool:
        """A Python list: a list display or comprehension, `list(...)`, a list display times an int (`[1] * n`),
        or a local name every binding of which is one of these or another such name (flow-insensitive)."""
        return self._is_list(node, set())

    def _is_list(self, node: cst.BaseExpression, seen: set[str]) -> bool:
        if isinstance(node, cst.List | cst.ListComp):
            return True
        if isinstance(node, cst.Call):
            return self.is_builtin(node.func, ("list",))
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Multiply):
            # `[1] * n`, `n * [1]`: a list repeated an int number of times (times a tensor it is a tensor)
            for items, times in ((node.left, node.right), (node.right, node.left)):
                if isinstance(items, cst.List | cst.ListComp) and self.is_int(times):
                    return True
            return False
        if not isinstance(node, cst.Name) or node.value in seen or self.ctx.current is None:
            return False
        bindings = self.bindings(node.value)
        seen.add(node.value)
        return bool(bindings) and all(b.kind == "value" and self._is_list(b.node, seen) for b in bindings)  # type: ignore[arg-type]

    def list_aliases(self, name: str, before: cst.CSTNode) -> list[str]:
        """The other local names of the graph function bound to the same list as `name` (`b = a`, `a = b`) by an
        assignment written before `before` (`inputs = new_inputs` after the loop that fills `new_inputs` is not
        an alias there)."""
        index = self.index()
        aliases = []

        def earlier(binding: Binding, target: str) -> bool:
            if binding.kind != "value" or not _is_name(binding.node, target):
                return False  # decided without positions, which cost a printing of the whole file
            here = self.ctx.positions[before].start
            start = self.ctx.positions[binding.node].start  # type: ignore[index]
            return (start.line, start.column) < (here.line, here.column)

        for other, bindings in index.bindings.items():
            if other == name:
                continue
            to_name = any(earlier(b, name) for b in bindings)
            from_name = any(earlier(b, other) for b in index.bindings.get(name, []))
            if (to_name or from_name) and self.is_list(cst.Name(other)):
                aliases.append(other)
        return sorted(aliases)

    def depends_on_tensor(self, node: cst.BaseExpression) -> bool:
        """A condition whose truth is a tensor's value: `x.mean() > 0`, `mask.any() and flag`, `x.item()`."""
        if self._known(node):
            return True
        if isinstance(node, cst.BooleanOperation):
            return self.depends_on_tensor(node.left) or self.depends_on_tensor(node.right)
        if isinstance(node, cst.UnaryOperation):
            return self.depends_on_tensor(node.expression)
        if isinstance(node, cst.Comparison):
            return _is_value_comparison(node) and any(self.depends_on_tensor(n) for n in _operands(node))
        if isinstance(node, cst.Call) and len(node.args) == 1 and self.is_builtin(node.func, ("bool", "float", "int")):
            return self._known(node.args[0].value)
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
            return node.func.attr.value in ("item", "asnumpy") and self._known(node.func.value)
        return False

    # -- shapes -------------------------------------------------------------------------------------

    def rank(self, node: cst.BaseExpression) -> int | None:
        """How many dimensions the tensor `node` has wherever the code runs past it, when the source fixes
        it; None otherwise. Known: the output of an `nn.ConvNd` layer (MindSpore 2.10's ConvNd takes only
        batched input, N+2 dimensions, and gives as many: measured, a 2-D input to `nn.Conv1d` raises), also
        through a same-file subclass that does not override `construct`; what an activation layer keeps of
        its input; a local name through the one assignment that reaches it in straight-line code; a
        parameter once a top-level statement before has passed it to a ConvNd layer (a run with another
        rank raised there)."""
        return self._rank(node, None, 0)

    def _rank(self, node: cst.BaseExpression, before: cst.CSTNode | None, depth: int) -> int | None:
        function = self.ctx.current.node if self.ctx.current else None
        if function is None or depth > 8:
            return None
        if isinstance(node, cst.Call):
            layer = self._layer(node.func)
            args = [a.value for a in node.args if a.keyword is None and not a.star]
            if layer in _CONV_RANKS and len(args) == 1:
                return _CONV_RANKS[layer]
            if layer in _RANK_KEEPING_LAYERS and len(args) == 1 and len(node.args) == 1:
                return self._rank(args[0], before or node, depth + 1)
            return None
        if not isinstance(node, cst.Name):
            return None
        body = list(function.body.body)
        at = before if before is not None else node
        index = next((i for i, st in enumerate(body) if any(n is at for n in find(st, type(at)))), None)
        if index is None:
            return None
        if node.value in _bound_names(body[index]) and _single_target_value(body[index], node.value) is None:
            return None  # bound in the same block (a loop body, a branch) or by a walrus beside the use
        for statement in reversed(body[:index]):
            if node.value not in _bound_names(statement):
                continue
            value = _single_target_value(statement, node.value)
            return None if value is None else self._rank(value, statement, depth + 1)
        params = function.params
        if node.value not in {p.name.value for p in (*params.params, *params.posonly_params, *params.kwonly_params)}:
            return None
        for statement in body[:index]:  # the parameter's value: what a layer before required of it
            value = _single_target_value(statement, None)
            if isinstance(value, cst.Call) and self._layer(value.func) in _CONV_RANKS:
                args = [a.value for a in value.args]
                if len(args) == 1 and isinstance(args[0], cst.Name) and args[0].value == node.value:
                    return _CONV_RANKS[self._layer(value.func)]  # type: ignore[index]
        return None

    def _layer(self, func: cst.BaseExpression) -> str | None:
        """`self.conv` set only to `nn.Conv1d(...)` (or to a same-file subclass that keeps `construct`):
        "Conv1d"; the layer class's name in mindspore.nn, or None."""
        values = self.self_attribute(func)
        kinds = {self._layer_class(v.func, 0) if isinstance(v, cst.Call) else None for v in values}
        return kinds.pop() if len(kinds) == 1 else None

    def _layer_class(self, func: cst.BaseExpression, depth: int) -> str | None:
        for name in self.ctx.names(func):
            if name.startswith("mindspore.nn.") and name.count(".") >= 2:
                return name.rpartition(".")[2]
        if not isinstance(func, cst.Name) or depth > 4:
            return None
        classes = [c for c in self.ctx.module.body if isinstance(c, cst.ClassDef) and c.name.value == func.value]
        if len(classes) != 1 or len(classes[0].bases) != 1:
            return None
        cls = classes[0]
        if any(isinstance(m, cst.FunctionDef) and m.name.value == "construct" for m in cls.body.body):
            return None
        return self._layer_class(cls.bases[0].value, depth + 1)

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
        if isinstance(node, cst.Call) and self.is_len_call(node) and self._known(node.args[0].value):
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

    def is_dimension(self, node: cst.BaseExpression) -> bool:
        """One dimension (`x.shape[0]`, `len(x)` of a tensor, a name bound to one, `x.shape[1] * 2`)."""
        if self.shape_dim(node) is not None:
            return True
        if isinstance(node, cst.BinaryOperation):
            parts = (node.left, node.right)
            dims = [self.is_dimension(p) for p in parts]
            return any(dims) and all(d or self.is_int(p) for d, p in zip(dims, parts, strict=True))
        if isinstance(node, cst.UnaryOperation):
            return not isinstance(node.operator, cst.Not) and self.is_dimension(node.expression)
        return False

    def is_shape(self, node: cst.BaseExpression) -> bool:
        """A shape or a dimension, or integer arithmetic with at least one of them in it."""
        if self.is_dimension(node) or self.is_shape_tuple(node):
            return True
        if isinstance(node, cst.Attribute):
            return node.attr.value == "shape"
        if isinstance(node, cst.Subscript):
            return self.is_shape(node.value)
        if isinstance(node, cst.BinaryOperation):
            parts = (node.left, node.right)
            return any(self.is_shape(p) for p in parts) and all(self.is_shape(p) or self.is_int(p) for p in parts)
        if isinstance(node, cst.UnaryOperation):
            return self.is_shape(node.expression)
        return False

    def is_shape_tuple(self, node: cst.BaseExpression) -> bool:
        """A whole shape, as a tuple: `x.shape`, `x.shape[1:]`, `ops.shape(x)`."""
        if isinstance(node, cst.Call):
            return self.op_name(node.func) == "shape"
        if isinstance(node, cst.Attribute):
            return node.attr.value == "shape"
        if isinstance(node, cst.Subscript) and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Slice):
            return self.is_shape_tuple(node.value)
        return False

    def is_shape_like(self, node: cst.BaseExpression) -> bool:
        """A whole size, not one int: a shape tuple, a tuple or list literal, `x.shape[:2] + (8,)`."""
        if isinstance(node, cst.Tuple | cst.List):
            return True
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add):
            return self.is_shape_like(node.left) or self.is_shape_like(node.right)
        return self.is_shape_tuple(node)

    # -- Python values ------------------------------------------------------------------------------

    def is_int(self, node: cst.BaseExpression) -> bool:
        """One Python int: a literal, `len(...)`, `int(...)`, a shape dimension, integer arithmetic on them.

        Not `t.item()`: a Python number of `t`'s dtype (the PyTorch-port sizes take it for an int)."""
        if isinstance(node, cst.UnaryOperation) and not isinstance(node.operator, cst.Not):
            return self.is_int(node.expression)
        if isinstance(node, cst.Integer):
            return True
        if isinstance(node, cst.Attribute) and self.is_rank(node):
            return True
        if isinstance(node, cst.Call):
            func = node.func
            if self.is_builtin(func, ("len", "int")):
                return True
        if isinstance(node, cst.BinaryOperation) and not isinstance(node.operator, cst.Divide):
            return self.is_int(node.left) and self.is_int(node.right)
        return self.shape_dim(node) is not None

    def is_static(self, node: cst.BaseExpression, depth: int = 0) -> bool:
        """Known before any input is seen, in every configuration: number literals, the Cell's config
        numbers (`self.k` set only to numbers or constructor arguments), a rank (`x.ndim`, `len(x.shape)`:
        a dynamic batch leaves it known), locals bound only to such, and tuples and integer arithmetic of
        them. Never a shape dimension (a dynamic batch makes it unknown)."""
        if depth > 8:
            return False
        if isinstance(node, cst.Integer | cst.Float):
            return True
        if isinstance(node, cst.UnaryOperation) and not isinstance(node.operator, cst.Not):
            return self.is_static(node.expression, depth + 1)
        if isinstance(node, cst.Tuple | cst.List):
            return all(not isinstance(e, cst.StarredElement) and self.is_static(e.value, depth + 1)
                       for e in node.elements)  # fmt: skip
        if isinstance(node, cst.BinaryOperation):
            return self.is_static(node.left, depth + 1) and self.is_static(node.right, depth + 1)
        if isinstance(node, cst.Attribute | cst.Call) and self.is_rank(node):
            return True
        if isinstance(node, cst.Attribute):
            return self.is_number(node)
        if isinstance(node, cst.Name):
            values = self.values_of(node)
            return bool(values) and all(self.is_static(v, depth + 1) for v in values)
        return False

    def is_rank(self, node: cst.BaseExpression, depth: int = 0) -> bool:
        """A tensor's number of dimensions: `x.ndim`, `len(x.shape)`, a local bound only to one, or integer
        arithmetic of one with static values (`x.ndim - 1`). Known in every configuration (`is_static`)."""
        if depth > 8:
            return False
        if isinstance(node, cst.Attribute):
            return node.attr.value == "ndim"
        if isinstance(node, cst.Call) and self.is_builtin(node.func, ("len",)) and len(node.args) == 1:
            shape = node.args[0].value
            return isinstance(shape, cst.Attribute) and shape.attr.value == "shape"
        if isinstance(node, cst.BinaryOperation):
            sides = (node.left, node.right)
            return any(self.is_rank(n, depth + 1) for n in sides) and all(self.is_static(n) for n in sides)
        if isinstance(node, cst.Name):
            values = self.values_of(node)
            return bool(values) and all(self.is_rank(v, depth + 1) for v in values)
        return False

    def values_of(self, name: cst.Name) -> list[cst.BaseExpression]:
        """Every value a local name is assigned (a loop over `range` gives an int); empty when any binding
        is something else (a parameter, unpacking, another loop)."""
        if self.ctx.current is None:
            return []
        values: list[cst.BaseExpression] = []
        for binding in self.bindings(name.value):
            if binding.kind == "value":
                values.append(binding.node)  # type: ignore[arg-type]
            elif binding.kind == "iterate" and _is_range(binding.node):
                values.append(cst.Integer("0"))
            else:
                return []
        return values

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
        # `self.a += v` keeps what the other assignments make of `a`
        return [a.value for a in stored if a.value is not UNKNOWN and not isinstance(a.value, cst.AugAssign)]  # type: ignore[misc]

    def attributes(
        self, cell: cst.ClassDef, ignore: Callable[[str, str], bool] | None = None
    ) -> dict[str, list[cst.BaseExpression]]:
        """`self.<attr> = value` in every method of `cell` but `construct`, by attribute (UNKNOWN included);
        without the assignments for which `ignore(method name, attribute)` holds."""
        found: dict[str, list[cst.BaseExpression]] = {}
        for name, assignments in self.ctx.self_assignments(cell).items():
            for a in assignments:
                if a.method == "construct" or isinstance(a.value, cst.AugAssign):
                    continue
                if ignore is None or not ignore(a.method, name):
                    found.setdefault(name, []).append(a.value)
        return found

    def primitive_of(self, func: cst.BaseExpression) -> str | None:
        """`ops.ReduceSum()` called, or `self.sum` set only to `ops.ReduceSum(...)`: the primitive's name."""
        values = [func] if isinstance(func, cst.Call) else self.self_attribute(func)
        names = {self._primitive_name(v) for v in values}
        return names.pop() if len(names) == 1 else None

    # -- what is known not to be a tensor -----------------------------------------------------------

    def _ruled_out(self, node: cst.BaseExpression, depth: int) -> bool:
        """Known to be something else: a literal, a module, a shape, a Python value, a Cell."""
        if depth > _MAX_DEPTH:
            return False  # names bound to names bound to …: give up (may be a tensor)
        if isinstance(node, _LITERALS):
            return True
        if isinstance(node, cst.Name):
            return self._name_ruled_out(node, depth)
        if isinstance(node, cst.Attribute):
            return self._attribute_ruled_out(node, depth)
        if isinstance(node, cst.Subscript):  # an item of a shape or a string; an item of a list may be a tensor
            return not self._is_container(node.value, depth) and self._ruled_out(node.value, depth + 1)
        if isinstance(node, cst.Call):
            return self._call_ruled_out(node, depth)
        if isinstance(node, cst.BinaryOperation):
            return self._ruled_out(node.left, depth + 1) and self._ruled_out(node.right, depth + 1)
        if isinstance(node, cst.IfExp):
            return self._ruled_out(node.body, depth + 1) and self._ruled_out(node.orelse, depth + 1)
        return False

    def _name_ruled_out(self, node: cst.Name, depth: int) -> bool:
        if node.value in ("self", "None", "True", "False") or self.ctx.names(node) or self._is_builtin_name(node):
            return True
        values = self.values_of(node)
        return bool(values) and all(self._ruled_out(v, depth + 1) for v in values)

    def _attribute_ruled_out(self, node: cst.Attribute, depth: int) -> bool:
        if node.attr.value in NOT_TENSOR_ATTRIBUTES or self.ctx.names(node):
            return True  # `x.shape`, `self.training`, `np.pi`, `ms.float32`
        values = self.self_attribute(node)
        return bool(values) and all(self._stores_no_tensor(v, depth) for v in values)

    def _call_ruled_out(self, node: cst.Call, depth: int) -> bool:
        names = self.ctx.names(node.func)
        if names:
            return all(not n.startswith("mindspore") or self._gives_python_value(n) for n in names)
        func = node.func
        if self.is_builtin(func, HOST_BUILTINS) or isinstance(func, cst.Name) and func.value in self._classes():
            return True  # an instance of a class of this file (a Cell, a helper object)
        if isinstance(func, cst.Attribute):
            if func.attr.value in HOST_VALUE_METHODS:
                return True
            return not _is_name(func.value, "self") and self._ruled_out(func.value, depth + 1)
        return False

    def _gives_python_value(self, name: str) -> bool:
        """`mint.distributed.is_available()`, `ops.shape(x)`, `nn.Dense(...)`: MindSpore, but no tensor."""
        module, _, short = name.rpartition(".")
        if name in NOT_TENSOR_FUNCTIONS or module.startswith(NOT_TENSOR_MODULES):
            return True
        if module in OP_MODULES:
            return short in PYTHON_VALUE_OPS
        return module.startswith("mindspore.nn") and short[:1].isupper() and module != "mindspore.nn.functional"

    def _stores_no_tensor(self, value: cst.BaseExpression, depth: int) -> bool:
        """What `self.attr = value` stores is not a tensor: a Cell, a literal, a container, a flag."""
        if isinstance(value, cst.Call) and any(n.startswith("mindspore.nn.") for n in self.ctx.names(value.func)):
            return True
        if isinstance(value, cst.Name) and value.value not in ("None", "True", "False"):
            return False  # an __init__ argument: could be anything
        return self._ruled_out(value, depth + 1)

    def _is_container(self, node: cst.BaseExpression, depth: int) -> bool:
        """A list, tuple, dict or set (written, or a name bound only to one): its items may be tensors."""
        if isinstance(node, _CONTAINERS):
            return True
        if isinstance(node, cst.Name) and depth <= _MAX_DEPTH:
            values = self.values_of(node)
            return bool(values) and all(self._is_container(v, depth + 1) for v in values)
        return False

    def _is_builtin_name(self, node: cst.Name) -> bool:
        """`len`, `list`, … (libcst also names `(a == b).astype` "builtins.None": only plain names count)."""
        return any(q.source.name == "BUILTIN" for q in qualified_names(self.ctx.qualified, node))

    def _classes(self) -> set[str]:
        if self._class_names is None:
            self._class_names = {s.name.value for s in self.ctx.module.body if isinstance(s, cst.ClassDef)}
        return self._class_names

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

    def _name_known(self, name: str) -> bool:
        """`_known` of a name; asked with nothing being resolved (no answer assumed for a cycle), the
        answer is kept for the function: each `len(x)` of a long `construct` would walk every use of `x`."""
        if self._visiting:
            return self._guarded(("tensor", name), lambda: self._name_is_tensor(name), True)
        key = (id(self.index()), name)
        known = self._names.get(key)
        if known is None:
            known = self._names[key] = self._guarded(("tensor", name), lambda: self._name_is_tensor(name), True)
        return known

    def _name_is_tensor(self, name: str) -> bool:
        index = self.index()
        bindings = index.bindings.get(name, [])
        if name == "self" or not bindings or name in index.polymorphic or self._type_checked(name):
            return False
        first = bindings[0]
        return all(self._binding_is_tensor(name, b, b is first) for b in bindings)

    def _binding_is_tensor(self, name: str, binding: Binding, first: bool) -> bool:
        """By the bound value; the first binding also by how the name is used before it is rebound."""
        if binding.kind == "param":
            annotated = self._param_is_tensor(binding.node) and name not in self._doubtful()  # type: ignore[arg-type]
            return annotated or first and self._used_as_tensor(name) or self._passed_tensors(binding.node)  # type: ignore[arg-type]
        if binding.kind == "aug":
            return True  # `y += v` keeps what y's other bindings say
        if binding.kind == "value":
            by_value = self._known(binding.node)  # type: ignore[arg-type]
        elif binding.kind == "unpack":
            by_value = self._unpacks_tensors(binding.node, binding.position)  # type: ignore[arg-type]
        elif binding.kind == "iterate":
            by_value = self._iterates_tensors(binding.node)  # type: ignore[arg-type]
        else:
            return False
        # how the name is used speaks only for a value nothing rules out (`np.zeros(...)` has `.transpose` too)
        if by_value or not first:
            return by_value
        ruled_out = binding.kind == "value" and self._ruled_out(binding.node, 0)  # type: ignore[arg-type]
        return not ruled_out and self._used_as_tensor(name)

    def _type_checked(self, name: str) -> bool:
        """`if not ops.is_tensor(timestep): timestep = ms.tensor([timestep])`: the code does not know either."""
        checks = {"mindspore.ops.is_tensor", "mindspore.ops.isinstance_"}
        return any(self.ctx.names(func) & checks for func in self.index().passed_to.get(name, ()))

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
        if self.op_name(func) in TENSOR_FIRST_ARG_OPS or self._is_tensor_layer(func):
            return True
        return self.primitive_of(func) in TENSOR_PRIMITIVES - {"Concat", "Stack"}

    def _unpacks_tensors(self, value: cst.BaseExpression, position: int) -> bool:
        if isinstance(value, cst.Tuple | cst.List):
            elements = value.elements
            return position < len(elements) and self._known(elements[position].value)
        return isinstance(value, cst.Call) and self.op_name(value.func) in TENSOR_TUPLE_OPS

    def _iterates_tensors(self, iterable: cst.BaseExpression) -> bool:
        if isinstance(iterable, cst.Tuple | cst.List):
            return bool(iterable.elements) and all(
                not isinstance(e, cst.StarredElement) and self._known(e.value) for e in iterable.elements
            )
        if isinstance(iterable, cst.Call) and self.op_name(iterable.func) in TENSOR_TUPLE_OPS:
            return True
        # a parameter annotated `Tensor` and looped over: a tensor's rows, or a list of tensors (its
        # annotation is in doubt, its elements are not)
        bindings = self.bindings(iterable.value) if isinstance(iterable, cst.Name) else []
        only_param = len(bindings) == 1 and bindings[0].kind == "param"
        return self._known(iterable) or only_param and self._param_is_tensor(bindings[0].node)  # type: ignore[arg-type]

    def _call_gives_tensor(self, call: cst.Call) -> bool:
        names = self.ctx.names(call.func)
        if names & TENSOR_MAKERS or INITIALIZER in names:
            return True
        short = self.op_name(call.func)
        if short is not None:
            return (
                short[:1].islower()
                and short not in NOT_ONE_TENSOR
                and not any(a.keyword and a.keyword.value.startswith(TUPLE_KEYWORDS) for a in call.args)
            )
        primitive = self.primitive_of(call.func)
        if primitive is not None:
            return primitive in TENSOR_PRIMITIVES
        if self._is_tensor_layer(call.func):
            return True
        func = call.func
        if not isinstance(func, cst.Attribute) or not self._known(func.value):
            return False
        method = func.attr.value
        return method in TENSOR_METHODS or (method in ("max", "min") and _numpy_overload(call))

    def _is_full_reduction(self, call: cst.Call) -> bool:
        func = call.func
        if len(call.args) > 1 or any(a.keyword is not None or a.star for a in call.args):
            return False
        if not call.args:  # x.mean()
            return isinstance(func, cst.Attribute) and func.attr.value in FULL_REDUCTIONS and self._known(func.value)
        if not self._known(call.args[0].value):
            return False
        short = self.op_name(func)
        if short is not None:
            return short in OPS_FULL_REDUCTIONS
        primitive = self.primitive_of(func)
        if primitive in FULL_REDUCTION_PRIMITIVES:
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
        return any(n.startswith("mindspore.nn.") and n.rpartition(".")[2] in TENSOR_LAYERS for n in names)

    def _makes_tensor(self, value: cst.BaseExpression) -> bool:
        if not isinstance(value, cst.Call):
            return False
        names = self.ctx.names(value.func)
        if names & TENSOR_MAKERS or INITIALIZER in names:
            return True
        short = self.op_name(value.func)
        return short is not None and short[:1].islower() and short not in NOT_ONE_TENSOR

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

    def builtin_here(self, node: cst.CSTNode, name: str) -> bool:
        """`name` written where `node` is would mean Python's builtin (no local, global or import rebinds it):
        a fix may then write `tuple(...)` or `set(...)` there."""
        scope = self.ctx.scopes.get(node)
        found = scope[name] if scope is not None else set()
        return bool(found) and all(isinstance(a, BuiltinAssignment) for a in found)

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
        if self.is_builtin(func, tuple(PURE_BUILTINS)):
            return True
        if self.ctx.names(func) & TENSOR_CONSTRUCTORS:
            return True
        short = self.op_name(func)
        if short is None:
            short = self.primitive_of(func)
            if short is None and isinstance(func, cst.Call):
                return False
        if short is not None:
            return not any(fragment in short.lower() for fragment in IMPURE_FRAGMENTS) and (
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
        if isinstance(func, cst.Attribute) and self._known(func.value):
            method = func.attr.value
            receiver = self.shape_key(func.value)
            if method == "astype" and len(positional) == 1:
                return _union(receiver, frozenset({"dtype:" + self.ctx.code(positional[0])}))
            if method in CASTS and not call.args:
                return _union(receiver, frozenset({"dtype:" + method}))
            if method in ELEMENTWISE and len(positional) == len(call.args):
                return _union(receiver, *(self.shape_key(p) for p in positional))
        return frozenset({_atom(self.ctx, call)})


# the output rank of MindSpore 2.10's convolution layers, whose input must be batched (N+2 dimensions)
_CONV_RANKS = {"Conv1d": 3, "Conv2d": 4, "Conv3d": 5, "Conv1dTranspose": 3, "Conv2dTranspose": 4, "Conv3dTranspose": 5}
# layers that give a tensor of their input's shape
_RANK_KEEPING_LAYERS = frozenset({
    "ReLU", "ReLU6", "GELU", "SiLU", "Sigmoid", "Tanh", "LeakyReLU", "PReLU", "HSwish", "HSigmoid", "Mish", "ELU",
    "Dropout", "Softmax", "LogSoftmax",
})  # fmt: skip


def _bound_names(statement: cst.BaseStatement) -> set[str]:
    """Every name `statement` binds, at any depth (targets, loop variables, `as` names, walrus, the
    parameters of a nested def or lambda)."""
    names: set[str] = set()
    for node in find(statement, cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.For, cst.CompFor,
                     cst.NamedExpr, cst.AsName, cst.FunctionDef, cst.ClassDef, cst.Del, cst.Param):  # fmt: skip
        target = getattr(node, "target", None) or getattr(node, "name", None)
        if target is not None:
            names |= target_names(target)
    return names


def _single_target_value(statement: cst.BaseStatement, name: str | None) -> cst.BaseExpression | None:
    """`value` of a line that is one `name = value` (any single target when `name` is None); None otherwise."""
    assign = single_assign(statement)
    if assign is None:
        return None
    target = assign.targets[0].target
    if name is not None and not (isinstance(target, cst.Name) and target.value == name):
        return None
    return assign.value


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


def _is_name(node: cst.CSTNode | None, name: str) -> bool:
    return isinstance(node, cst.Name) and node.value == name


def _is_range(node: cst.CSTNode | None) -> bool:
    return isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "range"


def assigned_value(ctx: FileContext, target: cst.CSTNode) -> cst.BaseExpression | None:
    """The value of `target = value` (a single target, no unpacking); None for any other binding."""
    return ctx.single_assignments.get(id(target))


def _argument(call: cst.Call, positional: list[str], name: str) -> cst.BaseExpression | None:
    """What `call` passes for the parameter `name` (`positional`: the parameters a position reaches)."""
    for i, arg in enumerate(call.args):
        if arg.star:
            return None
        if arg.keyword is not None and arg.keyword.value == name:
            return arg.value
        if arg.keyword is None and i < len(positional) and positional[i] == name:
            return arg.value
    return None


def _numpy_overload(call: cst.Call) -> bool:
    """`x.max()`, or `x.max(-1, keepdims=True)`/`x.max(axis=-1)`: numpy's overload, a tensor in every mode
    (the torch one, `x.max(-1)` or `x.max(-1, keepdim=True)`, is a (values, indices) pair in PyNative:
    measured, GM505). tests/verify_rules/shapes_flow/gm305_numpy_where_dynamic.py compares
    `out.max(-1, keepdims=True) > 0.1` in PyNative and every graph mode, which a pair would fail."""
    return not call.args or any(a.keyword is not None and a.keyword.value in ("axis", "keepdims") for a in call.args)
