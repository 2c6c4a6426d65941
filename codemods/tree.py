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
from collections.abc import Callable, Iterable

import libcst as cst
from libcst._batched_visitor import _BatchedCSTVisitor


def children(node: cst.CSTNode) -> list[cst.CSTNode]:
    """The child nodes of `node`, read from its dataclass fields (libcst's `children` rebuilds the node)."""
    found: list[cst.CSTNode] = []
    for name in _child_fields(type(node)):
        value = getattr(node, name)
        if isinstance(value, cst.CSTNode):
            found.append(value)
        elif isinstance(value, (list, tuple)):
            found.extend(item for item in value if isinstance(item, cst.CSTNode))
    return found


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
    found: list[cst.CSTNode] = []

    class _Collect(cst.CSTVisitor):
        def on_visit(self, visited: cst.CSTNode) -> bool:
            if isinstance(visited, types):
                found.append(visited)
            return True

    node.visit(_Collect())
    return found


def names_in(node: cst.CSTNode) -> set[str]:
    """Every name spelled anywhere in `node` (reads, writes, attributes' heads, parameters)."""
    found: set[str] = set()

    class _Collect(cst.CSTVisitor):
        def visit_Name(self, name: cst.Name) -> None:
            found.add(name.value)

    node.visit(_Collect())
    return found


def visit(node: cst.CSTNode, visitor: cst.CSTVisitor) -> None:
    """`node.visit(visitor)` for a read-only visitor: `on_visit`, the children in libcst's order (with
    `on_visit_attribute`/`on_leave_attribute` around each field, when the visitor has such hooks), then
    `on_leave`; no node is rebuilt."""
    _walk(node, visitor, _has_attribute_hooks(visitor))


def visit_batched(node: cst.CSTNode, visitors: Iterable[cst.BatchableCSTVisitor]) -> None:
    """libcst's `visit_batched` for read-only visitors: each node's `visit_<Type>` of every visitor (in the
    order given), its children, then each `leave_<Type>`. Like libcst's, a visit method cannot skip the
    children (its return value is ignored)."""
    enter: dict[str, list[Callable]] = {}
    leave: dict[str, list[Callable]] = {}
    for visitor in visitors:
        for name, method in visitor.get_visitors().items():
            kind, _, type_name = name.partition("_")
            if "_" in type_name:
                raise ValueError(f"{type(visitor).__name__}.{name}: attribute hooks are not supported here")
            (enter if kind == "visit" else leave).setdefault(type_name, []).append(method)
    _walk_batched(node, enter, leave)


def _walk(node: cst.CSTNode, visitor: cst.CSTVisitor, hooks: bool) -> None:
    if visitor.on_visit(node):
        for field in _ORDER.get(type(node)) or _order(node):
            value = getattr(node, field)
            if hooks:
                visitor.on_visit_attribute(node, field)
            if isinstance(value, tuple | list):
                for child in value:
                    if isinstance(child, cst.CSTNode):
                        _walk(child, visitor, hooks)
            elif isinstance(value, cst.CSTNode):
                _walk(value, visitor, hooks)
            if hooks:
                visitor.on_leave_attribute(node, field)
    visitor.on_leave(node)


def _walk_batched(node: cst.CSTNode, enter: dict[str, list[Callable]], leave: dict[str, list[Callable]]) -> None:
    name = type(node).__name__
    for method in enter.get(name, ()):
        method(node)
    for field in _ORDER.get(type(node)) or _order(node):
        value = getattr(node, field)
        if isinstance(value, tuple | list):
            for child in value:
                if isinstance(child, cst.CSTNode):
                    _walk_batched(child, enter, leave)
        elif isinstance(value, cst.CSTNode):
            _walk_batched(value, enter, leave)
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
    """The fields of `node`'s class in the order libcst visits them (the same for every node of a class:
    `_visit_and_replace_children` visits a fixed list of fields)."""
    recorder = _FieldOrder(node)
    node._visit_and_replace_children(recorder)
    _ORDER[type(node)] = order = tuple(recorder.fields)
    return order


def _has_attribute_hooks(visitor: cst.CSTVisitor) -> bool:
    """Whether `visitor` does anything on entering or leaving a field (`visit_ClassDef_bases`, as libcst's
    scope pass does): only then are the two calls per field made."""
    cls = type(visitor)
    if isinstance(visitor, _BatchedCSTVisitor):
        return any("_" in name.partition("_")[2] for name in visitor.visitor_methods)
    if (cls.on_visit_attribute, cls.on_leave_attribute) != (cst.CSTVisitor.on_visit_attribute,
                                                              cst.CSTVisitor.on_leave_attribute):  # fmt: skip
        return True
    return _defines_attribute_hooks(cls)


@functools.cache
def _defines_attribute_hooks(cls: type) -> bool:
    for name in dir(cls):
        kind, _, rest = name.partition("_")
        if kind in ("visit", "leave") and rest[:1].isupper() and "_" in rest:  # visit_<Type>_<field>
            return True
    return False


_libcst_visit = cst.CSTNode.visit


def _visit_method(self: cst.CSTNode, visitor):  # type: ignore[no-untyped-def]
    if isinstance(visitor, cst.CSTVisitor):
        _walk(self, visitor, _has_attribute_hooks(visitor))
        return self
    return _libcst_visit(self, visitor)


cst.CSTNode.visit = _visit_method  # type: ignore[method-assign]
