"""What a name refers to: resolved through the file's imports, never matched by spelling.

`import numpy as onp` makes `onp.ones` host numpy ("numpy.ones"); `from mindspore import numpy as np`
makes `np.ones` graph-native ("mindspore.numpy.ones"). Everything here works on libcst's
`ScopeProvider`, computed once per file by the engine, and its scopes' qualified names.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from collections.abc import Set as AbstractSet
from types import MappingProxyType

import libcst as cst
from libcst.metadata import (
    ExpressionContext,
    ExpressionContextProvider,
    GlobalScope,
    ImportAssignment,
    MetadataWrapper,
    QualifiedName,
    Scope,
    ScopeProvider,
)
from libcst.metadata.scope_provider import (
    _ASSIGNMENT_LIKE_NODES,
    Access,
    BaseAssignment,
    ScopeVisitor,
    _gen_dotted_names,
)

from graphmend.tree import leave_methods as _leave_methods
from graphmend.tree import visited_children
from graphmend.vocabulary import canonical  # noqa: F401  (re-exported: rules import it from here)

_ASSIGNMENT_LIKE = frozenset(_ASSIGNMENT_LIKE_NODES)

NUMPY_DTYPES = {
    "float16", "float32", "float64", "int8", "int16", "int32", "int64",
    "uint8", "uint16", "uint32", "uint64", "bool_", "complex64", "complex128",
}  # fmt: skip
_NUMPY_DTYPE_ALIASES = {"double": "float64", "single": "float32", "half": "float16", "bool": "bool_"}
_BUILTIN_DTYPES = {"builtins.float": "float64", "builtins.int": "int64", "builtins.bool": "bool_"}


def resolve_scopes(wrapper: MetadataWrapper) -> Mapping[cst.CSTNode, Scope | None]:
    """libcst's ScopeProvider for the wrapped module, in time and memory linear in the module's size.

    `wrapper.resolve(ScopeProvider)` walks the tree twice for ExpressionContextProvider (its visitor, then
    a batched walk that finds nothing more to do), and again as a batched visit in which only the
    provider's `visit_Module` works (it runs its own ScopeVisitor). Here the dependency is
    `expression_contexts` and the visitor is run directly. It is libcst's, but for how accesses meet
    assignments (`_LinearScopes`).
    """
    if ExpressionContextProvider not in wrapper._metadata:  # its dependency, computed without libcst's two walks
        wrapper._metadata[ExpressionContextProvider] = expression_contexts(wrapper.module)
    provider = ScopeProvider()
    with provider.resolve(wrapper):
        visitor = _LinearScopes(provider)
        wrapper.module.visit(visitor)
        visitor.infer_accesses()
    return MappingProxyType(provider._computed)  # type: ignore[arg-type]


def expression_contexts(module: cst.Module) -> dict[cst.CSTNode, ExpressionContext]:
    """libcst's ExpressionContextProvider in one walk without visitor calls: a node is STORE as an assignment,
    loop, comprehension, `as`, parameter, def or class target, DEL under `del`, LOAD otherwise; an
    Attribute's `attr` has none. The same rules, node type by node type, as libcst's
    ExpressionContextVisitor (tests/test_names.py compares both on every golden case)."""
    found: dict[cst.CSTNode, ExpressionContext] = {}
    todo: list[tuple[cst.CSTNode | None, ExpressionContext]] = [(module, _LOAD)]
    while todo:
        node, context = todo.pop()
        if node is None:
            continue
        kind = type(node)
        if kind is cst.Name:
            found[node] = context
        elif kind is cst.Attribute:  # its `attr` gets no context
            found[node] = context
            todo.append((node.value, _LOAD))  # type: ignore[attr-defined]
        elif kind is cst.Subscript:
            found[node] = context
            todo.append((node.value, _LOAD))  # type: ignore[attr-defined]
            todo += ((element, _LOAD) for element in node.slice)  # type: ignore[attr-defined]
        elif kind in _CONTEXTS:
            todo += _CONTEXTS[kind](node, context)
        else:
            if kind in _OWN_CONTEXT:
                found[node] = context
            todo += ((child, context) for child in visited_children(node))
    return found


_LOAD, _STORE, _DEL = ExpressionContext.LOAD, ExpressionContext.STORE, ExpressionContext.DEL
_OWN_CONTEXT = {cst.Tuple, cst.List, cst.StarredElement}  # and their parts in the same context
# The node types whose parts get a context of their own (libcst's visit_<Type> methods that return False).
_CONTEXTS = {
    cst.Assign: lambda n, c: [*((t, _STORE) for t in n.targets), (n.value, c)],
    cst.AnnAssign: lambda n, c: [(n.target, _STORE), (n.annotation, c), (n.value, c)],
    cst.AugAssign: lambda n, c: [(n.target, _STORE), (n.value, c)],
    cst.NamedExpr: lambda n, c: [(n.target, _STORE), (n.value, c)],
    cst.AsName: lambda n, c: [(n.name, _STORE)],
    cst.CompFor: lambda n, c: [(n.target, _STORE), (n.iter, c), *((i, c) for i in n.ifs), (n.inner_for_in, c)],
    cst.For: lambda n, c: [(n.target, _STORE), (n.iter, c), (n.body, c), (n.orelse, c)],
    cst.Del: lambda n, c: [(n.target, _DEL)],
    cst.ClassDef: lambda n, c: [
        (n.name, _STORE),
        (n.body, c),
        *((b, c) for b in n.bases),
        *((k, c) for k in n.keywords),
        *((d, c) for d in n.decorators),
    ],
    cst.FunctionDef: lambda n, c: [
        (n.name, _STORE),
        (n.params, c),
        (n.body, c),
        *((d, c) for d in n.decorators),
        (n.returns, c),
    ],
    cst.Param: lambda n, c: [(n.name, _STORE), (n.annotation, c), (n.default, c)],
}


class _LinearScopes(ScopeVisitor):
    """libcst's ScopeVisitor, whose `Access.referents` and `BaseAssignment.references` are worked out when
    read, not stored for every access and assignment.

    libcst stores, for each read of a name, every assignment of it before the read, and for each
    assignment every read after it: a `construct` of n statements `y = y + x` holds n² of them (1.8 GB
    at n = 6,000). Rules read them for a few nodes. The sets read are libcst's own (libcst==1.9.0 is
    pinned; tests/test_scopes.py compares both on every golden case); only when they are computed moves.
    """

    def on_leave(self, original_node: cst.CSTNode) -> None:
        """libcst's, with its `isinstance(node, _ASSIGNMENT_LIKE_NODES)` (fifteen ABC checks a node) as a
        set lookup: the node classes have no subclasses."""
        self.provider._computed[original_node] = self.scope
        kind = type(original_node)
        if kind in _ASSIGNMENT_LIKE:
            self.scope._assignment_count += 1
        leave = _leave_methods(type(self))[kind]
        if leave is not None:
            leave(self, original_node)

    def infer_accesses(self) -> None:
        """libcst's `infer_accesses`, with `_Referents` and `_References` in place of the two sets."""
        groups: dict[tuple[Scope, str], set[Access]] = defaultdict(set)
        for deferred in self._ScopeVisitor__deferred_accesses:  # type: ignore[attr-defined]
            access, name = deferred.access, deferred.access.node.value
            if deferred.enclosing_attribute is not None:  # `a.b.c` reads `a.b` where `a.b` is imported
                for dotted_name, node in _gen_dotted_names(deferred.enclosing_attribute):
                    if dotted_name in access.scope:
                        access.node, name = node, dotted_name
                        break
            if deferred.enclosing_string_annotation is not None:
                access.node = deferred.enclosing_string_annotation
            groups[(access.scope, name)].add(access)
            access._Access__assignments = _Referents(access, name)  # type: ignore[attr-defined]
            access.scope.record_access(name, access)
        for (scope, name), accesses in groups.items():
            _record_accesses(scope._resolve_scope_for_access(name, scope), accesses)
        self._ScopeVisitor__deferred_accesses = []


class _Referents(AbstractSet):
    """libcst's `Access.record_assignments`, done on each read of `access.referents`."""

    def __init__(self, access: Access, name: str) -> None:
        self._access, self._name = access, name

    def _items(self) -> set[BaseAssignment]:
        access, scope = self._access, self._access.scope
        assignments = scope._resolve_scope_for_access(self._name, scope)
        found = {a for a in assignments if a.scope != scope or a._index < access._index}
        if not found and assignments and scope.parent != scope:  # read before any assignment in its scope
            found = set(scope.parent._resolve_scope_for_access(self._name, scope))
        return found

    def __contains__(self, item: object) -> bool:
        return item in self._items()

    def __iter__(self) -> Iterator[BaseAssignment]:
        return iter(self._items())

    def __len__(self) -> int:
        return len(self._items())


class _References(AbstractSet):
    """libcst's `BaseAssignment.record_accesses`, done on each read of `assignment.references`: the
    groups of accesses it was given, filtered then."""

    def __init__(self, assignment: BaseAssignment) -> None:
        self._assignment = assignment
        self.groups: list[set[Access]] = []

    def _items(self) -> set[Access]:
        mine = self._assignment
        return {a for group in self.groups for a in group if a.scope != mine.scope or mine._index < a._index}

    def __contains__(self, item: object) -> bool:
        return item in self._items()

    def __iter__(self) -> Iterator[Access]:
        return iter(self._items())

    def __len__(self) -> int:
        return len(self._items())


def _record_accesses(assignments: Iterable[BaseAssignment], accesses: set[Access]) -> None:
    """`assignment.record_accesses(accesses)` for each of `assignments`, in time linear in `accesses`.

    libcst hands the accesses an assignment does not see (those before it in its own scope) on to the
    assignments of the name in the parent scope. `record_accesses` distributes over unions of accesses,
    so those of all assignments of one name in one scope are handed on at once: the accesses up to the
    last of them."""
    last: dict[tuple[Scope, str], int] = {}
    for assignment in list(assignments):
        references = assignment._BaseAssignment__accesses  # type: ignore[attr-defined]
        if not isinstance(references, _References):
            assignment._BaseAssignment__accesses = _References(assignment)  # type: ignore[attr-defined]
            assignment._BaseAssignment__accesses.groups.append(references)  # type: ignore[attr-defined]
        assignment._BaseAssignment__accesses.groups.append(accesses)  # type: ignore[attr-defined]
        scope = assignment.scope
        if scope.parent != scope:
            key = (scope, assignment.name)
            last[key] = max(last.get(key, assignment._index), assignment._index)
    for (scope, name), index in last.items():
        earlier = {a for a in accesses if a.scope == scope and a._index <= index}
        if earlier:
            _record_accesses(scope.parent[name], earlier)


class QualifiedNames(Mapping[cst.CSTNode, set[QualifiedName]]):
    """libcst's QualifiedNameProvider without its pass over the whole tree.

    The provider visits every node to attach a lazy lookup in the node's scope; rules ask about a few
    hundred nodes of the graph code, so the lookup is done here on first use (and kept).
    """

    def __init__(self, scopes: Mapping[cst.CSTNode, Scope | None]) -> None:
        self._scopes = scopes
        self._known: dict[cst.CSTNode, set[QualifiedName]] = {}

    def __getitem__(self, node: cst.CSTNode) -> set[QualifiedName]:
        names = self._known.get(node)
        if names is None:
            scope = self._scopes[node]
            names = self._known[node] = scope.get_qualified_names_for(node) if scope else set()
        return names

    def __iter__(self) -> Iterator[cst.CSTNode]:
        return iter(self._scopes)

    def __len__(self) -> int:
        return len(self._scopes)


def qualified_names(qualified: Mapping[cst.CSTNode, object], node: cst.CSTNode) -> set[QualifiedName]:
    """libcst's qualified names of `node` (empty for a node outside the module analysed)."""
    return qualified.get(node) or set()  # type: ignore[return-value]


def imported_names(qualified: Mapping[cst.CSTNode, object], node: cst.CSTNode) -> set[str]:
    """Canonical qualified names of `node` that come from an import (locals and builtins excluded)."""
    return {canonical(q.name) for q in qualified_names(qualified, node) if q.source.name == "IMPORT"}


def numpy_dtype_name(qualified: Mapping[cst.CSTNode, object], node: cst.BaseExpression) -> str | None:
    """`np.float32`, `"float32"`, `float` → the numpy dtype name; None when it cannot be known."""
    if isinstance(node, cst.SimpleString):
        text = node.evaluated_value
        text = _NUMPY_DTYPE_ALIASES.get(text, text)
        return text if text in NUMPY_DTYPES else None
    for name in qualified_names(qualified, node):
        if name.name in _BUILTIN_DTYPES:
            return _BUILTIN_DTYPES[name.name]
        if name.source.name == "IMPORT" and name.name.startswith("numpy."):
            short = name.name.removeprefix("numpy.")
            short = _NUMPY_DTYPE_ALIASES.get(short, short)
            if short in NUMPY_DTYPES:
                return short
    return None


def mindspore_dtype_name(qualified: Mapping[cst.CSTNode, object], node: cst.BaseExpression) -> str | None:
    """`ms.float32`, `mstype.float32`, `mindspore.common.dtype.float32` → `float32`."""
    for name in imported_names(qualified, node):
        short = name.removeprefix("mindspore.")
        if short != name and short in MINDSPORE_DTYPES:
            return short
    return None


MINDSPORE_DTYPES = {
    "float16", "float32", "float64", "bfloat16", "int8", "int16", "int32", "int64",
    "uint8", "uint16", "uint32", "uint64", "bool", "bool_", "complex64", "complex128",
}  # fmt: skip


class ModuleBindings:
    """Module-level names bound by imports, to spell a reference to `mindspore.ops` the file's way."""

    def __init__(self, scope: GlobalScope) -> None:
        self._scope = scope
        self._by_target: dict[str, str] = {}
        for assignment in scope.assignments:
            if not isinstance(assignment, ImportAssignment):
                continue
            for q in scope.get_qualified_names_for(assignment.name):
                # The first binding wins; `import mindspore.ops` also binds `mindspore`.
                self._by_target.setdefault(q.name, assignment.name)

    def name_for(self, target: str) -> str | None:
        """The module-level name bound to `target` (e.g. `ops` for `mindspore.ops`), if any."""
        return self._by_target.get(target)

    def reference(self, target: str) -> tuple[cst.BaseExpression, tuple[str, str | None] | None]:
        """An expression for `target` (`mindspore.ops.ones`, `mindspore.float32`) and the import it needs.

        Reuses what the file already imports (`ops.ones`, `ms.ops.ones`, `mstype.float32`); otherwise
        asks for `from mindspore import ops` (also where only a bare `import mindspore` binds it), or
        `import mindspore` when `ops` means something else here.
        """
        module, _, attr = target.rpartition(".")
        candidates = [module]
        if module == "mindspore" and attr in MINDSPORE_DTYPES:  # a file that says `mstype.float32` gets that
            candidates = ["mindspore.common.dtype", "mindspore.dtype", module]
        parts = module.split(".")
        candidates += [".".join(parts[:i]) for i in range(len(parts) - 1, 0, -1)]
        ops_free = module == "mindspore.ops" and self.is_free("ops")
        for prefix in candidates:
            bound = self.name_for(prefix)
            if bound == "mindspore" and ops_free:
                # a bare `import mindspore` is what a fix itself adds: `ops.x` either way, so that a fix
                # spells the same whether another fix's import came first (ruff-style edits, applied one
                # fix at a time, then give what `fix` writes in one go)
                continue
            if bound is not None:
                rest = target.removeprefix(prefix) if target.startswith(prefix + ".") else "." + attr
                return dotted(bound + rest), None
        if ops_free:
            return dotted("ops." + attr), ("mindspore", "ops")
        return dotted(target), ("mindspore", None)

    def is_free(self, name: str) -> bool:
        """True when `name` is bound to nothing at module level (safe to add an import of it)."""
        return name not in self._scope


def dotted(name: str) -> cst.BaseExpression:
    """`"a.b.c"` → the expression node `a.b.c`."""
    head, *rest = name.split(".")
    node: cst.BaseExpression = cst.Name(head)
    for part in rest:
        node = cst.Attribute(value=node, attr=cst.Name(part))
    return node
