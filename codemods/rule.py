"""What every rule builds on: the per-file context, the rule base class, and findings."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, ClassVar, Literal

import libcst as cst
from libcst.metadata import CodeRange, MetadataWrapper, Scope

from graphmend.finding import Applicability, Edit, Import
from graphmend.messages import Message
from graphmend.names import ModuleBindings, imported_names
from graphmend.positions import LazyPositions
from graphmend.scopes import GraphFunction, SelfAssignment, self_assignments
from graphmend.targets import Breaks
from graphmend.tree import find, parent_map, statements
from graphmend.values import Values

if TYPE_CHECKING:
    from graphmend.firstpass import Facts
    from graphmend.incremental import Reparser


@dataclass(frozen=True)
class Fix:
    # a statement may become several (FlattenSentinel) or none (RemovalSentinel)
    replacement: cst.CSTNode | cst.FlattenSentinel | cst.RemovalSentinel
    applicability: Applicability
    imports: tuple[Import, ...] = ()
    # the node the replacement replaces, when it is not the reported one (a fix that also edits `__init__`
    # replaces the class, and the finding stays on the call it is about)
    target: cst.CSTNode | None = None
    # top-level functions the fix adds after the module's imports, as code (graphmend.definitions)
    definitions: tuple[str, ...] = ()


@dataclass(frozen=True)
class Report:
    """A rule's finding on one node of the tree being analysed (internal: holds libcst nodes)."""

    rule: type[Rule]
    node: cst.CSTNode
    message: str
    fix: Fix | None


@dataclass
class FileContext:
    """Everything a rule may ask about the file being analysed; built once per parse by the engine."""

    path: str
    wrapper: MetadataWrapper
    qualified: Mapping[cst.CSTNode, object]
    scopes: Mapping[cst.CSTNode, Scope | None]
    bindings: ModuleBindings
    graph_functions: list[GraphFunction]
    cell_classes: list[cst.ClassDef]  # the classes of the file taken for an `nn.Cell`, in source order
    # every call of the file, with the function, lambda or class body it is directly in (scopes.GraphCode)
    calls: list[tuple[cst.FunctionDef | cst.Lambda | cst.ClassDef | None, cst.Call]] = field(default_factory=list)
    current: GraphFunction | None = None  # the graph function being visited
    import_edits: dict[frozenset[Import], tuple[Edit, ...]] = field(default_factory=dict)  # engine's, per file
    reports: list[Report] = field(default_factory=list)
    _self_assignments: dict[int, dict[str, list[SelfAssignment]]] = field(default_factory=dict)

    text: str | None = None  # the module's code, when the engine has it (libcst's code generation costs)
    memo: Reparser | None = None  # the language server's: positions and parents per top-level statement
    # id of a reported node → the top-level statement it was reported in: where positions look for it first
    _reported_in: dict[int, cst.CSTNode] = field(default_factory=dict)

    @property
    def module(self) -> cst.Module:
        return self.wrapper.module

    @property
    def source(self) -> str:
        """The module's code: what it was parsed from."""
        if self.text is None:
            self.text = self.module.code
        return self.text

    # Positions and parents cost a pass over the whole file each: computed only when asked for.
    @cached_property
    def positions(self) -> Mapping[cst.CSTNode, CodeRange]:
        if self.memo is not None:
            return self.memo.positions(self.module, lambda: self.parents, self._statements_holding)
        return LazyPositions(self.module, self.source, lambda: self.parents, self._statements_holding)

    def note_report(self, *nodes: cst.CSTNode | None) -> None:
        """Remember the top-level statement of the graph function being visited for these reported nodes."""
        top = self._current_statement()
        if top is not None:
            self._reported_in.update((id(node), top) for node in nodes if node is not None)

    def _statements_holding(self, node: cst.CSTNode) -> list[cst.CSTNode]:
        """Top-level statements likely to hold `node`: the one it was reported in, the one being visited."""
        found = [self._reported_in.get(id(node)), self._current_statement()]
        return [statement for statement in found if statement is not None]

    def _current_statement(self) -> cst.CSTNode | None:
        if self.current is None:
            return None
        for node in (self.current.cell, self.current.node):
            if node is not None and id(node) in self._top_level:
                return node
        return None

    @cached_property
    def _top_level(self) -> set[int]:
        return {id(statement) for statement in self.module.body}

    @cached_property
    def parents(self) -> Mapping[cst.CSTNode, cst.CSTNode]:
        return parent_map(self.module) if self.memo is None else self.memo.parents(self.module)

    @cached_property
    def statements(self) -> list[cst.CSTNode]:
        """Every statement of the module, in order: a walk that skips expressions, far cheaper than `parents`."""
        return statements(self.module)

    @cached_property
    def single_assignments(self) -> dict[int, cst.BaseExpression | None]:
        """id of `t` → `value`, for each `t = value` (one target) and `t: T = value` of the module."""
        found: dict[int, cst.BaseExpression | None] = {}
        for statement in self.statements:
            if isinstance(statement, cst.Assign) and len(statement.targets) == 1:
                found[id(statement.targets[0].target)] = statement.value
            elif isinstance(statement, cst.AnnAssign):
                found[id(statement.target)] = statement.value
        return found

    @cached_property
    def values(self) -> Values:
        """The one answer to "is this a tensor, a dimension, an int, host numpy?" for every rule."""
        return Values(self)

    def self_assignments(self, cls: cst.ClassDef) -> dict[str, list[SelfAssignment]]:
        """What the methods of `cls` store on `self`, by attribute (read once per file)."""
        found = self._self_assignments.get(id(cls))
        if found is None:
            found = self._self_assignments[id(cls)] = self_assignments(cls)
        return found

    def names(self, node: cst.CSTNode) -> set[str]:
        """Canonical imported qualified names of `node` (`np.ones` → {"numpy.ones"})."""
        return imported_names(self.qualified, node)

    def code(self, node: cst.CSTNode) -> str:
        return self.module.code_for_node(node)

    def where(self) -> str:
        """A phrase naming the graph code being visited, for messages."""
        return self.current.describe() if self.current else "graph code"


class Rule(cst.BatchableCSTVisitor):
    """Base of every rule. Subclasses set the class attributes and call `self.report`.

    Rules visit only graph code (see `graphmend.scopes`) unless `VISITS` says otherwise.
    The class docstring is the rule's documentation: What it does / Why it breaks graph mode /
    Example / Fix safety.
    """

    CODE: ClassVar[str]
    NAME: ClassVar[str]
    BREAKS: ClassVar[Breaks]  # `breaks(...)`: where the pattern breaks, as measured (docs/evidence.md)
    # `explains(...)`: the MindSpore errors the pattern raises, as measured (graphmend.messages); optional
    EXPLAINS: ClassVar[tuple[Message, ...]] = ()
    FIX: ClassVar[str] = "safe"  # what its fixes are: "safe", "unsafe", "safe/unsafe" (depends), or "none"
    DEFAULT: ClassVar[bool] = True  # rules off by default run only when selected
    # what the engine visits with the rule: the graph functions, the Cell classes, or the whole file
    VISITS: ClassVar[Literal["graph", "cells", "module"]] = "graph"

    def __init__(self, ctx: FileContext) -> None:
        super().__init__()
        self.ctx = ctx

    @classmethod
    def may_find(cls, facts: Facts) -> bool:
        """The first pass (graphmend.firstpass): False only when the file cannot hold what the rule finds. A rule
        of graph code needs a graph function; a rule that visits more says what it needs."""
        return facts.graph

    @property
    def values(self) -> Values:
        """What the file's values are (`graphmend.values`), shared by every rule."""
        return self.ctx.values

    def get_visitors(self) -> Mapping[str, Callable[..., object]]:
        # libcst's own runs inspect.getmembers over ~1,600 attributes for every instance, every file
        return {name: getattr(self, name) for name in visitor_names(type(self))}

    def report(
        self,
        node: cst.CSTNode,
        message: str,
        replacement: cst.CSTNode | cst.FlattenSentinel | cst.RemovalSentinel | None = None,
        applicability: Applicability = "safe",
        imports: tuple[Import | None, ...] = (),
        target: cst.CSTNode | None = None,
        definitions: tuple[str, ...] = (),
    ) -> None:
        fix = None
        if replacement is not None:
            dropped = _comments(target or node) - _comments(replacement)
            if dropped:
                # like ruff: a fix that would delete a comment is applied only when asked for
                applicability = "unsafe"
                message += f" (the fix would drop the comment `{min(dropped)}`)"
            fix = Fix(replacement, applicability, tuple(i for i in imports if i is not None), target, definitions)
        self.ctx.reports.append(Report(type(self), node, message, fix))
        self.ctx.note_report(node, target)


@functools.cache
def visitor_names(cls: type[Rule]) -> tuple[str, ...]:
    """The visit_/leave_ methods `cls` defines or inherits, without libcst's empty stubs."""
    names = []
    for name in dir(cls):
        if name.startswith(("visit_", "leave_")) and name != "visit_batched":
            method = getattr(cls, name)
            if callable(method) and not getattr(method, "_is_no_op", False):
                names.append(name)
    return tuple(names)


def _comments(node: cst.CSTNode | cst.FlattenSentinel | cst.RemovalSentinel) -> set[str]:
    if isinstance(node, cst.RemovalSentinel):
        return set()
    if isinstance(node, cst.FlattenSentinel):
        return set().union(*(_comments(n) for n in node.nodes))
    return {comment.value for comment in find(node, cst.Comment)}  # type: ignore[arg-type]
