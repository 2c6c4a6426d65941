"""What a name refers to: resolved through the file's imports, never matched by spelling.

`import numpy as onp` makes `onp.ones` host numpy ("numpy.ones"); `from mindspore import numpy as np`
makes `np.ones` graph-native ("mindspore.numpy.ones"). Everything here works on libcst's
`ScopeProvider`, computed once per file by the engine, and its scopes' qualified names.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import MappingProxyType

import libcst as cst
from libcst.metadata import GlobalScope, ImportAssignment, MetadataWrapper, QualifiedName, Scope, ScopeProvider

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

NUMPY_DTYPES = {
    "float16", "float32", "float64", "int8", "int16", "int32", "int64",
    "uint8", "uint16", "uint32", "uint64", "bool_", "complex64", "complex128",
}  # fmt: skip
_NUMPY_DTYPE_ALIASES = {"double": "float64", "single": "float32", "half": "float16", "bool": "bool_"}
_BUILTIN_DTYPES = {"builtins.float": "float64", "builtins.int": "int64", "builtins.bool": "bool_"}


def canonical(name: str) -> str:
    """The canonical spelling of a qualified name (`mindspore.common.dtype.float32` → `mindspore.float32`)."""
    for alias, target in _ALIASES:
        if name == alias or name.startswith(alias + "."):
            return target + name[len(alias) :]
    return name


def resolve_scopes(wrapper: MetadataWrapper) -> Mapping[cst.CSTNode, Scope | None]:
    """libcst's ScopeProvider for the wrapped module, without the wrapper's idle pass.

    `wrapper.resolve(ScopeProvider)` walks the tree once for ExpressionContextProvider, and again as a
    batched visit in which only the provider's `visit_Module` works (it runs its own ScopeVisitor); the
    second walk is a quarter of the time. Here the dependency is resolved by the wrapper and the provider
    is run directly.
    """
    provider = ScopeProvider()
    with provider.resolve(wrapper):
        provider.visit_Module(wrapper.module)
    return MappingProxyType(provider._computed)  # type: ignore[arg-type]


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
        asks for `from mindspore import ops`, or `import mindspore` when `ops` means something else here.
        """
        module, _, attr = target.rpartition(".")
        candidates = [module]
        if module == "mindspore":  # dtypes also live in mindspore.common.dtype
            candidates += ["mindspore.common.dtype", "mindspore.dtype"]
        parts = module.split(".")
        candidates += [".".join(parts[:i]) for i in range(len(parts) - 1, 0, -1)]
        for prefix in candidates:
            bound = self.name_for(prefix)
            if bound is not None:
                rest = target.removeprefix(prefix) if target.startswith(prefix + ".") else "." + attr
                return dotted(bound + rest), None
        if module == "mindspore.ops" and self.is_free("ops"):
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
