"""How the local names of one graph function get their values, read in one pass (flow-insensitive).

`graphmend.values` asks this index for a name's bindings (parameter, assignment, unpacking, loop) and
for the evidence of how a name is used before anything rebinds it (`x.shape`, `x[:, 0]`, `ops.relu(x)`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import libcst as cst

from graphmend.vocabulary import EVIDENCE_ATTRIBUTES


@dataclass(frozen=True)
class Binding:
    """One way a local name gets a value in the graph function."""

    kind: str  # "param", "value", "unpack", "iterate", "aug", "opaque"
    node: cst.CSTNode | None  # the Param; the value, unpacked value, iterable or augmented operand
    position: int = 0  # the index in an unpacked tuple
    size: int = 0  # how many names the tuple unpacks into (-1 with a starred name)
    order: int = 0  # source order of the binding in the function


class FunctionIndex(cst.CSTVisitor):
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
        self._count = 0  # bindings so far, of every name

    @classmethod
    def of(cls, function: cst.FunctionDef) -> FunctionIndex:
        index = cls()
        index._bind_params(function.params)
        function.body.visit(index)
        return index

    def _add(self, name: str, kind: str, node: cst.CSTNode | None, position: int = 0, size: int = 0) -> None:
        self.bindings.setdefault(name, []).append(Binding(kind, node, position, size, self._count))
        self._count += 1
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
        if name is not None and node.attr.value in EVIDENCE_ATTRIBUTES:
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
