"""Fast reads of a libcst tree.

libcst's visitors and its ParentNodeProvider rebuild every node they pass (`_visit_and_replace_children`),
which makes a pass over a 100 kB file cost a tenth of a second; these read the dataclass fields that
hold the children instead, about ten times faster. Nothing here changes a tree.

`CSTNode.visit` with a read-only visitor (a `CSTVisitor`: libcst's scope and expression-context passes,
the rules, every helper walk) is replaced by `visit`, which calls the same methods in the same order
without rebuilding a node: libcst's own traversal builds a copy of the tree and throws it away. Transformers
(which do change the tree) still go through libcst's. The order of a node's children is libcst's own,
learnt from `_visit_and_replace_children` once per node class; tests/test_tree.py compares both on every
golden case.
"""

from __future__ import annotations

import dataclasses
import functools
import typing
from collections.abc import Callable, Container, Iterable, Mapping

import libcst as cst
from libcst._batched_visitor import _BatchedCSTVisitor


def children(node: cst.CSTNode) -> list[cst.CSTNode]:
    """The child nodes of `node`, read from its dataclass fields (libcst's `children` rebuilds the node)."""
    found: list[cst.CSTNode] = []
    for name in _child_fields(type(node)):
        value = getattr(node, name)
        kind = type(value)
        if _IS_NODE[kind]:
            found.append(value)
        elif kind is tuple or kind is list:
            found.extend(item for item in value if _IS_NODE[type(item)])
    return found


def visited_children(node: cst.CSTNode) -> list[cst.CSTNode]:
    """The child nodes libcst's traversal visits, in its order (`children` reads every field)."""
    found: list[cst.CSTNode] = []
    kind = type(node)
    for name in _ORDER[kind] if kind in _ORDER else _order(node):
        value = getattr(node, name)
        held = type(value)
        if _IS_NODE[held]:
            found.append(value)
        elif held is tuple or held is list:
            found.extend(item for item in value if _IS_NODE[type(item)])
    return found


class _NodeTypes(dict):
    """type → whether it is a CSTNode class, learnt once per type: libcst's classes are ABCs, whose
    `isinstance` goes through `ABCMeta.__instancecheck__`, a third of a walk's time."""

    def __missing__(self, kind: type) -> bool:
        self[kind] = found = issubclass(kind, cst.CSTNode)
        return found


_IS_NODE = _NodeTypes()


class _Subclasses(dict):
    """type → whether it is a subclass of `base`, learnt once per type (see `_NodeTypes`)."""

    def __init__(self, base: type) -> None:
        super().__init__()
        self.base = base

    def __missing__(self, kind: type) -> bool:
        self[kind] = found = issubclass(kind, self.base)
        return found


_IS_EXPRESSION = _Subclasses(cst.BaseExpression)
_IS_STATEMENT = _Subclasses((cst.BaseStatement, cst.BaseSmallStatement))


def parent_map(root: cst.CSTNode) -> dict[cst.CSTNode, cst.CSTNode]:
    """The parent of every node under `root`: what libcst's ParentNodeProvider gives."""
    parents: dict[cst.CSTNode, cst.CSTNode] = {}
    todo = [root]
    while todo:
        node = todo.pop()
        for child in children(node):
            parents[child] = node
            todo.append(child)
    return parents


@functools.cache
def _child_fields(cls: type[cst.CSTNode]) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls))


def find(node: cst.CSTNode, *types: type[cst.CSTNode]) -> list:
    """`node` and every node under it that is one of `types`, in the order libcst visits them: what
    `libcst.matchers.findall(node, m.T1() | m.T2())` gives, without importing libcst.matchers (its
    thousands of generated classes take most of a cold start's second)."""
    collect = _Find(types)
    node.visit(collect)
    return collect.found


def names_in(node: cst.CSTNode) -> set[str]:
    """Every name spelled anywhere in `node` (reads, writes, attributes' heads, parameters)."""
    collect = _Names()
    node.visit(collect)
    return collect.found


def statements(node: cst.CSTNode, into_classes: bool = True) -> list[cst.CSTNode]:
    """`node` and every statement under it (compound, simple lines and small statements: `Assign`, `Del`…),
    in libcst's order, without walking an expression (no statement is inside one): what `find(node,
    <statement types>)` gives at a fraction of the cost. A class under `node` is listed, its body only with
    `into_classes`."""
    found: list[cst.CSTNode] = []
    todo = [node]
    while todo:
        current = todo.pop()
        kind = type(current)
        if _IS_EXPRESSION[kind]:
            continue
        if _IS_STATEMENT[kind]:
            found.append(current)
            if kind is cst.ClassDef and not into_classes and current is not node:
                continue
        todo.extend(reversed(visited_children(current)))
    return found


# The visitors of `find` and `names_in` are classes of their own, defined once: the walk caches what it
# learns per visitor class (`_calls`, `_hooks_of`), and a class made in each call was a new cache entry
# holding, through its closure, every node it had found — a worker kept the trees of every file it checked.
class _Find(cst.CSTVisitor):
    def __init__(self, types: tuple[type[cst.CSTNode], ...]) -> None:
        super().__init__()
        self.types = types
        self.found: list[cst.CSTNode] = []

    def on_visit(self, visited: cst.CSTNode) -> bool:
        if isinstance(visited, self.types):
            self.found.append(visited)
        return True


class _Names(cst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.found: set[str] = set()

    def visit_Name(self, name: cst.Name) -> None:
        self.found.add(name.value)


def visit(node: cst.CSTNode, visitor: cst.CSTVisitor) -> None:
    """`node.visit(visitor)` for a read-only visitor: `on_visit`, the children in libcst's order (with
    `on_visit_attribute`/`on_leave_attribute` around each field, when the visitor has such hooks), then
    `on_leave`; no node is rebuilt."""
    _walk(node, visitor, _attribute_hooks(visitor), _calls_of(visitor))


def visit_batched(node: cst.CSTNode, visitors: Iterable[cst.BatchableCSTVisitor]) -> None:
    """libcst's `visit_batched` for read-only visitors: each node's `visit_<Type>` of every visitor (in the
    order given), its children, then each `leave_<Type>`. Like libcst's, a visit method cannot skip the
    children (its return value is ignored). A subtree that cannot hold a node of a type the visitors
    ask for (by libcst's field types: no FunctionDef under a SimpleStatementLine) is not walked."""
    enter: dict[str, list[Callable]] = {}
    leave: dict[str, list[Callable]] = {}
    for visitor in visitors:
        for name, method in visitor.get_visitors().items():
            kind, _, type_name = name.partition("_")
            if "_" in type_name:
                raise ValueError(f"{type(visitor).__name__}.{name}: attribute hooks are not supported here")
            (enter if kind == "visit" else leave).setdefault(type_name, []).append(method)
    _walk_batched(node, enter, leave, _holding(frozenset(enter) | frozenset(leave)))


def child_types(cls: type[cst.CSTNode]) -> frozenset[type[cst.CSTNode]]:
    """The node classes libcst's field types allow directly under a node of `cls`."""
    return _child_types(cls)


@functools.cache
def _child_types(cls: type[cst.CSTNode]) -> frozenset[type[cst.CSTNode]]:
    hints = typing.get_type_hints(cls)
    found: set[type[cst.CSTNode]] = set()
    for name in _node_fields(cls):
        found |= _node_classes(hints[name])
    return frozenset(found)


def _node_classes(hint: object) -> set[type[cst.CSTNode]]:
    if isinstance(hint, type):
        return _with_subclasses(hint) if issubclass(hint, cst.CSTNode) else set()
    return {cls for arg in typing.get_args(hint) for cls in _node_classes(arg)}


def _with_subclasses(cls: type) -> set[type]:
    found, todo = {cls}, [cls]
    while todo:
        for sub in todo.pop().__subclasses__():
            if sub not in found:
                found.add(sub)
                todo.append(sub)
    return found


def holding(names: frozenset[str]) -> frozenset[type[cst.CSTNode]]:
    """The node classes named in `names` and every class that can hold one of them at any depth."""
    return _holding(names)


@functools.cache
def _holding(names: frozenset[str]) -> frozenset[type[cst.CSTNode]]:
    """The node classes named in `names` and every class that can hold one of them at any depth."""
    classes = _with_subclasses(cst.CSTNode)
    holders: dict[type, set[type]] = {}
    for cls in classes:
        for child in _child_types(cls):
            holders.setdefault(child, set()).add(cls)
    found = {cls for cls in classes if cls.__name__ in names}
    todo = list(found)
    while todo:
        for holder in holders.get(todo.pop(), ()):
            if holder not in found:
                found.add(holder)
                todo.append(holder)
    return frozenset(found)


def _walk(node: cst.CSTNode, visitor: cst.CSTVisitor, hooks: _Hooks | None, calls: _Calls) -> None:
    kind = type(node)
    if calls.own_visit:
        go = visitor.on_visit(node)
    else:  # CSTVisitor.on_visit: visit_<Type>, children unless it returns False
        method = calls.visit[kind]
        go = method is None or method(visitor, node) is not False
    if go:
        fields = hooks[kind] if hooks is not None else None
        for field in _ORDER[kind] if kind in _ORDER else _order(node):
            value = getattr(node, field)
            if fields and field in fields:
                visitor.on_visit_attribute(node, field)
            held = type(value)
            if held is tuple or held is list:
                for child in value:
                    if _IS_NODE[type(child)]:
                        _walk(child, visitor, hooks, calls)
            elif _IS_NODE[held]:
                _walk(value, visitor, hooks, calls)
            if fields and field in fields:
                visitor.on_leave_attribute(node, field)
    if calls.own_leave:
        visitor.on_leave(node)
    else:
        method = calls.leave[kind]
        if method is not None:
            method(visitor, node)


class _Methods(dict):
    """node type → a visitor class's `visit_<Type>` (or `leave_<Type>`), None for libcst's empty stub."""

    def __init__(self, cls: type, prefix: str) -> None:
        super().__init__()
        self.cls, self.prefix = cls, prefix

    def __missing__(self, kind: type) -> Callable | None:
        method = getattr(self.cls, self.prefix + kind.__name__, None)
        if getattr(method, "__module__", None) == "libcst._typed_visitor":
            method = None  # CSTTypedVisitorFunctions' stubs do nothing (and let the children be visited)
        self[kind] = method
        return method


class _Calls:
    """How `_walk` calls a visitor class: its own `on_visit`/`on_leave` when it overrides them; otherwise
    what libcst's do (`getattr(self, f"visit_{type(node).__name__}")`, a string and a lookup per node),
    with each type's method looked up once."""

    def __init__(self, cls: type) -> None:
        self.own_visit = cls.on_visit is not cst.CSTVisitor.on_visit
        self.own_leave = cls.on_leave is not cst.CSTVisitor.on_leave
        self.visit, self.leave = _Methods(cls, "visit_"), _Methods(cls, "leave_")


class _OwnCalls(_Calls):
    def __init__(self) -> None:
        self.own_visit = self.own_leave = True


_OWN_CALLS = _OwnCalls()


def _calls_of(visitor: cst.CSTVisitor) -> _Calls:
    """`visitor`'s calls; an instance that holds a method of its own (`v.visit_Name = f`) is called as
    libcst would, through its `on_visit`/`on_leave`."""
    if any(name.startswith(("visit_", "leave_")) for name in getattr(visitor, "__dict__", ())):
        return _OWN_CALLS
    return _calls(type(visitor))


@functools.cache
def _calls(cls: type) -> _Calls:
    return _Calls(cls)


def leave_methods(cls: type) -> Mapping[type, Callable | None]:
    """node type → `cls`'s `leave_<Type>` (None where it is libcst's empty stub): what CSTVisitor.on_leave
    would call, for a visitor that overrides on_leave and then calls it."""
    return _calls(cls).leave


def _walk_batched(
    node: cst.CSTNode, enter: dict[str, list[Callable]], leave: dict[str, list[Callable]], wanted: frozenset[type]
) -> None:
    name = type(node).__name__
    for method in enter.get(name, ()):
        method(node)
    for field in _ORDER[type(node)] if type(node) in _ORDER else _order(node):
        value = getattr(node, field)
        kind = type(value)
        if kind is tuple or kind is list:
            for child in value:
                if type(child) in wanted:
                    _walk_batched(child, enter, leave, wanted)
        elif kind in wanted:
            _walk_batched(value, enter, leave, wanted)
    for method in leave.get(name, ()):
        method(node)


_ORDER: dict[type[cst.CSTNode], tuple[str, ...]] = {}


class _FieldOrder(cst.CSTVisitor):
    """Records the fields libcst's traversal visits on one node, without going below it."""

    def __init__(self, node: cst.CSTNode) -> None:
        super().__init__()
        self.node, self.fields = node, []

    def on_visit(self, node: cst.CSTNode) -> bool:
        return False

    def on_leave(self, original_node: cst.CSTNode) -> None:
        pass

    def on_visit_attribute(self, node: cst.CSTNode, attribute: str) -> None:
        if node is self.node:
            self.fields.append(attribute)

    def on_leave_attribute(self, original_node: cst.CSTNode, attribute: str) -> None:
        pass


def _order(node: cst.CSTNode) -> tuple[str, ...]:
    """The fields of `node` in the order libcst visits them. `_visit_and_replace_children` visits a fixed
    list of fields per class, except where it skips a field that is None (a FormattedStringExpression's
    `format_spec`, with no hook call either): such a class is learnt anew for each of its nodes. A class
    is taken as fixed only when this node skips no field it leaves None, and the same node with each of
    its optional fields set to None still visits that field."""
    order = _fields_visited(node)
    cls = type(node)
    if cls in _CONDITIONAL:
        return order
    if any(getattr(node, name) is None for name in _node_fields(cls) if name not in order) or any(
        not _visited_when_none(node, name) for name in _optional_node_fields(cls) if getattr(node, name) is not None
    ):
        _CONDITIONAL.add(cls)
        return order
    _ORDER[cls] = order
    return order


def _fields_visited(node: cst.CSTNode) -> tuple[str, ...]:
    recorder = _FieldOrder(node)
    node._visit_and_replace_children(recorder)
    return tuple(recorder.fields)


def _visited_when_none(node: cst.CSTNode, name: str) -> bool:
    try:
        probe = node.with_changes(**{name: None})
    except Exception:  # not valid without it: cannot tell, so learn each node
        return False
    return name in _fields_visited(probe)


_CONDITIONAL: set[type[cst.CSTNode]] = set()  # classes whose visited fields depend on which are None


@functools.cache
def _node_fields(cls: type[cst.CSTNode]) -> tuple[str, ...]:
    """The fields of `cls` whose type admits a node or a sequence of nodes (not `Newline.value`, a str)."""
    hints = typing.get_type_hints(cls)
    return tuple(name for name in _child_fields(cls) if _admits_node(hints.get(name)))


@functools.cache
def _optional_node_fields(cls: type[cst.CSTNode]) -> tuple[str, ...]:
    hints = typing.get_type_hints(cls)
    return tuple(name for name in _node_fields(cls) if type(None) in typing.get_args(hints.get(name)))


def _admits_node(hint: object) -> bool:
    if isinstance(hint, type):
        return issubclass(hint, cst.CSTNode)
    return any(_admits_node(arg) for arg in typing.get_args(hint))


def _attribute_hooks(visitor: cst.CSTVisitor) -> _Hooks | None:
    """For each node type, the fields around which `visitor` does something (`visit_ClassDef_bases`, as
    libcst's scope pass does); None when it has no such hook. Only those fields get the two calls."""
    cls = type(visitor)
    if isinstance(visitor, _BatchedCSTVisitor):
        methods = [name for name in visitor.visitor_methods if "_" in name.partition("_")[2]]
        return _Hooks(methods) if methods else None
    if (cls.on_visit_attribute, cls.on_leave_attribute) != (cst.CSTVisitor.on_visit_attribute,
                                                              cst.CSTVisitor.on_leave_attribute):  # fmt: skip
        return _EVERY_FIELD  # its own hooks decide what to do with each field
    return _hooks_of(cls)


@functools.cache
def _hooks_of(cls: type) -> _Hooks | None:
    methods = set()
    for klass in cls.__mro__:
        if klass.__module__ == "libcst._typed_visitor":  # libcst's empty stubs, one per type and field
            continue
        for name in vars(klass):
            kind, _, rest = name.partition("_")
            if kind in ("visit", "leave") and rest[:1].isupper() and "_" in rest:  # visit_<Type>_<field>
                methods.add(name)
    return _Hooks(methods) if methods else None


class _Hooks(dict):
    """node type → the set of its fields that have a `visit_<Type>_<field>` or `leave_<Type>_<field>`."""

    def __init__(self, methods: Iterable[str] | None) -> None:
        super().__init__()
        self.by_type: dict[str, set[str]] | None = None
        if methods is not None:
            self.by_type = {}
            for name in methods:
                type_name, _, field = name.partition("_")[2].partition("_")
                self.by_type.setdefault(type_name, set()).add(field)

    def __missing__(self, kind: type) -> Container[str]:
        fields: Container[str] = _ALL if self.by_type is None else self.by_type.get(kind.__name__, set())
        self[kind] = fields
        return fields


class _All:
    def __contains__(self, field: object) -> bool:
        return True

    def __bool__(self) -> bool:
        return True


_ALL = _All()
_EVERY_FIELD = _Hooks(None)


_libcst_visit = cst.CSTNode.visit


def target_names(target: cst.CSTNode) -> set[str]:
    """The names an assignment target binds (`a`, `a, (b, *c)`; not `self.a` or `x[i]`)."""
    if isinstance(target, cst.AsName):
        return target_names(target.name)
    if isinstance(target, cst.Name):
        return {target.value}
    if isinstance(target, cst.Tuple | cst.List):
        return set().union(*(target_names(e.value) for e in target.elements))
    if isinstance(target, cst.StarredElement):
        return target_names(target.value)
    return set()


def single_assign(statement: cst.BaseStatement) -> cst.Assign | None:
    """The assignment of a line that is one `target = value` and nothing else."""
    if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1:
        assign = statement.body[0]
        if isinstance(assign, cst.Assign) and len(assign.targets) == 1:
            return assign
    return None


def _visit_method(self: cst.CSTNode, visitor):  # type: ignore[no-untyped-def]
    if isinstance(visitor, cst.CSTVisitor):
        _walk(self, visitor, _attribute_hooks(visitor), _calls_of(visitor))
        return self
    return _libcst_visit(self, visitor)


cst.CSTNode.visit = _visit_method  # type: ignore[method-assign]
