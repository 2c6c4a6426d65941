"""Where each node of a tree is: libcst's PositionProvider, without its per-token cost.

libcst's provider regenerates the module's code and, for every token, splits it with a regular expression
to count lines, enters a generator-based context manager per node and builds two dataclasses per range:
on a 3,000-line file that is half a second, seven times the code generation itself. This one runs the
same code generation (`Module._codegen`, so the ranges are libcst's by construction) but keeps a character
offset, notes where lines start only in tokens that hold a newline, and turns offsets into `CodeRange`s
only for the nodes a rule or a finding asks about. tests/test_positions.py compares every range with
libcst's on every golden case.
"""

from __future__ import annotations

import ast
import bisect
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

import libcst as cst
from libcst._nodes.internal import CodegenState
from libcst._position import CodePosition, CodeRange

_NEWLINE = re.compile(r"\r\n?|\n")  # libcst's own


class Positions(Mapping[cst.CSTNode, CodeRange]):
    """The syntactic range of every node of `module` (PositionProvider's), keyed by node.

    With `statements` (kept by the caller from one version of a file to the next: graphmend.incremental),
    each top-level statement's code generation is kept there and reused for the same statement object in
    the next version's module: a top-level statement prints the same whatever comes before it (given the
    module's default indent and newline), so its ranges are the ones kept, moved by where it now starts."""

    def __init__(self, module: cst.Module, statements: dict[int, Segment] | None = None) -> None:
        state = _State(module.default_indent, module.default_newline)
        if statements is None:
            module._codegen(state)
            self._segments: list[tuple[int, Segment]] = []
            self._owner: dict[int, int] = {}
        else:
            self._segments, self._owner = _codegen_by_statement(module, state, statements)
        self._spans = state.spans  # id(node) → (start offset, end offset): the nodes printed here
        self._starts = state.starts  # id(node) → where its code starts, leading whitespace and lines included
        self._lines = state.line_starts
        self._module = module  # keeps every node alive, so no id is reused while this lives

    def __getitem__(self, node: cst.CSTNode) -> CodeRange:
        start, end = self._span(id(node))
        return CodeRange(self._position(start), self._position(end))

    def __contains__(self, node: object) -> bool:
        return id(node) in self._spans or id(node) in self._owner

    def __iter__(self) -> Iterator[cst.CSTNode]:
        raise TypeError("Positions is looked up by node, not iterated")

    def __len__(self) -> int:
        return len(self._spans) + len(self._owner)

    def code_offset(self, node: cst.CSTNode) -> int:
        """Where the code libcst prints for `node` (a statement's comments and blank lines before it
        included) starts in the module's code."""
        key = id(node)
        if key in self._starts:
            return self._starts[key]
        base, segment = self._segments[self._owner[key]]
        return base + segment.starts[key]

    def _span(self, key: int) -> tuple[int, int]:
        if key in self._spans:
            return self._spans[key]
        base, segment = self._segments[self._owner[key]]
        start, end = segment.spans[key]
        return base + start, base + end

    def _position(self, offset: int) -> CodePosition:
        return _position(self._lines, offset)


def statement_starts(module: cst.Module, text: str) -> list[int] | None:
    """Where each top-level statement of `module` (parsed from `text`) starts in `text`, its comment and blank
    lines first, then where the footer starts: from CPython's `ast` line numbers, without printing the module.
    None when `ast` cannot parse `text` (syntax libcst accepts and CPython does not) or the statements do not
    line up with its."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    if not module.has_trailing_newline:
        return None
    lines = _line_starts(text)
    found, index = [], 0
    for statement in module.body:
        if index >= len(tree.body):
            return None
        first = tree.body[index]
        line = min([first.lineno, *(d.lineno for d in getattr(first, "decorator_list", ()))])
        index += len(statement.body) if isinstance(statement, cst.SimpleStatementLine) else 1
        decorators = getattr(statement, "decorators", ())
        line -= len(statement.leading_lines) + (len(decorators[0].leading_lines) if decorators else 0)
        if not 1 <= line <= len(lines) or found and lines[line - 1] <= found[-1]:
            return None
        found.append(lines[line - 1])
    if index != len(tree.body):
        return None
    footer = CodegenState(default_indent=module.default_indent, default_newline=module.default_newline)
    for line in module.footer:
        line._codegen(footer)
    found.append(len(text) - sum(len(token) for token in footer.tokens))
    return found


class LazyPositions(Mapping[cst.CSTNode, CodeRange]):
    """`Positions(module)` that prints only the top-level statements holding a node asked for.

    A check asks for the positions of its findings, most often in a few classes of a long file, and printed the
    whole module for them (1.9 s of CPU for 150 corpus files with graph code, whose check took 13.5 s, by a
    script not kept; this one: 0.93x the wall of a cold check on 72 mindone model folders, `farm-bench`,
    README). Where each top-level statement starts comes from `statement_starts` (CPython's parse, in C);
    each statement is printed alone (as `Positions(module, statements)` does) when one of its nodes is asked
    for, and its length is checked against the next start. Anything else (a node outside the statements, a
    length that does not match, a file `ast` cannot parse) falls back to printing the whole module, as
    before. tests/test_positions.py compares both with libcst's provider."""

    def __init__(
        self,
        module: cst.Module,
        text: str,
        parents: Callable[[], Mapping[cst.CSTNode, cst.CSTNode]],
        candidates: Callable[[cst.CSTNode], list[cst.CSTNode]] = lambda node: [],
        starts: list[int] | tuple[int, ...] | None = None,
        segments: dict[int, Segment] | None = None,
    ) -> None:
        """`starts`: `statement_starts` when the caller knows them (the language server's and `fix`'s
        Reparser); `segments`: statements printed before, by id, reused when the statement is the same object
        (and kept there for the next version)."""
        self._module, self._text, self._parents, self._candidates = module, text, parents, candidates
        self._starts = list(starts) if starts is not None else None
        self._index = {id(statement): i for i, statement in enumerate(module.body)}
        self._segments: dict[int, Segment] = {} if segments is None else segments  # by the statement's id
        self._lines = _line_starts(text)
        self._whole: Positions | None = None

    def __getitem__(self, node: cst.CSTNode) -> CodeRange:
        found = self._located(node)
        if found is None:
            return self._all()[node]
        base, segment = found
        start, end = segment.spans[id(node)]
        return CodeRange(self._position(base + start), self._position(base + end))

    def __contains__(self, node: object) -> bool:
        if self._whole is not None:
            return node in self._whole
        return isinstance(node, cst.CSTNode) and (self._located(node) is not None or node in self._all())

    def __iter__(self) -> Iterator[cst.CSTNode]:
        raise TypeError("Positions is looked up by node, not iterated")

    def __len__(self) -> int:
        return len(self._all())

    def code_offset(self, node: cst.CSTNode) -> int:
        index = self._index.get(id(node))
        if index is not None and self._whole is None and self._known_starts():
            return self._starts[index]  # type: ignore[index]  # a top-level statement: no printing
        found = self._located(node)
        if found is None:
            return self._all().code_offset(node)
        base, segment = found
        return base + segment.starts[id(node)]

    def _all(self) -> Positions:
        if self._whole is None:
            self._whole = Positions(self._module)
        return self._whole

    def _located(self, node: cst.CSTNode) -> tuple[int, Segment] | None:
        """(where its statement starts, the statement printed) for a node under a top-level statement: looked
        for first in the statements `candidates` names (printing one is cheaper than the parents of the whole
        module), then up its parents."""
        if self._whole is not None or not self._known_starts():
            return None
        for candidate in self._candidates(node):
            index = self._index.get(id(candidate))
            segment = None if index is None else self._segment(index)
            if segment is not None and id(node) in segment.spans:
                return self._starts[index], segment  # type: ignore[index]
        statement = node
        parents = self._parents()
        while id(statement) not in self._index:
            statement = parents.get(statement)
            if statement is None:
                return None
        index = self._index[id(statement)]
        segment = self._segment(index)
        if segment is None or id(node) not in segment.spans:
            return None
        return self._starts[index], segment

    def _known_starts(self) -> bool:
        if self._starts is None:
            self._starts = statement_starts(self._module, self._text) or []
        return bool(self._starts)

    def _segment(self, index: int) -> Segment | None:
        """The statement `index` printed alone, or None (and the whole module printed) when its length is not
        the distance to the next statement's start."""
        if self._whole is not None:
            return None
        statement = self._module.body[index]
        segment = self._segments.get(id(statement))
        if segment is None or segment.statement is not statement:
            state = _State(self._module.default_indent, self._module.default_newline)
            statement._codegen(state)
            segment = Segment(statement, state.spans, state.starts, state.line_starts[1:], state.offset)
            self._segments[id(statement)] = segment
        if self._starts[index + 1] - self._starts[index] != segment.length:  # type: ignore[index]
            self._all()
            return None
        return segment

    def _position(self, offset: int) -> CodePosition:
        return _position(self._lines, offset)


def _line_starts(text: str) -> list[int]:
    return [0] + [m.end() for m in _NEWLINE.finditer(text)]


def _position(line_starts: list[int], offset: int) -> CodePosition:
    """libcst's line (from 1) and column of a character offset, given where each line starts."""
    line = bisect.bisect_right(line_starts, offset) - 1
    return CodePosition(line + 1, offset - line_starts[line])


@dataclass(frozen=True)
class Segment:
    """One top-level statement printed alone: its nodes' ranges and the line starts in it, from its start."""

    statement: cst.BaseStatement  # kept alive, so its id names it
    spans: dict[int, tuple[int, int]]
    starts: dict[int, int]
    lines: list[int]
    length: int


def _codegen_by_statement(
    module: cst.Module, state: _State, statements: dict[int, Segment]
) -> tuple[list[tuple[int, Segment]], dict[int, int]]:
    """`Module._codegen` into `state`, but each top-level statement printed on its own (or taken from
    `statements`, which is left holding this module's statements only)."""
    segments: list[tuple[int, Segment]] = []
    state.before_codegen(module)
    for line in module.header:
        line._codegen(state)
    kept = {}
    for statement in module.body:
        segment = statements.get(id(statement))
        if segment is None or segment.statement is not statement:
            alone = _State(module.default_indent, module.default_newline)
            statement._codegen(alone)
            segment = Segment(statement, alone.spans, alone.starts, alone.line_starts[1:], alone.offset)
        kept[id(statement)] = segment
        base = state.offset
        segments.append((base, segment))
        state.line_starts += (base + line for line in segment.lines)
        state.offset += segment.length
        if segment.length and not state.tokens:
            state.tokens.append("")  # something was printed: Module._codegen_impl adds no newline
    for line in module.footer:
        line._codegen(state)
    if module.has_trailing_newline and not state.tokens:
        state.add_token(state.default_newline)
    state.after_codegen(module)
    statements.clear()
    statements.update(kept)
    owner: dict[int, int] = {}
    for index, (_, segment) in enumerate(segments):
        owner.update(dict.fromkeys(segment.spans, index))
    return segments, owner


class _Syntactic:
    """`record_syntactic_position` as a plain context manager (libcst's is a generator: most of its cost)."""

    __slots__ = ("state", "node", "start_node", "end_node", "start")

    def __init__(self, state: _State, node, start_node, end_node) -> None:
        self.state, self.node, self.start_node, self.end_node = state, node, start_node, end_node

    def __enter__(self) -> None:
        self.start = self.state.offset

    def __exit__(self, *exc) -> None:
        spans = self.state.spans
        start = spans[id(self.start_node)][0] if self.start_node is not None else self.start
        end = spans[id(self.end_node)][1] if self.end_node is not None else self.state.offset
        spans[id(self.node)] = (start, end)


class _State(CodegenState):
    """A code generation that keeps offsets instead of text (`tokens` only tells whether any was added)."""

    def __init__(self, default_indent: str, default_newline: str) -> None:
        super().__init__(default_indent=default_indent, default_newline=default_newline)
        self.offset = 0
        self.line_starts = [0]
        self.spans: dict[int, tuple[int, int]] = {}
        self.stack: list[int] = []
        self.starts: dict[int, int] = {}

    def add_indent_tokens(self) -> None:
        for token in self.indent_tokens:  # an indentation token may be a continuation holding a newline
            self.add_token(token)

    def add_token(self, value: str) -> None:
        if not self.tokens:
            self.tokens.append(value)  # Module._codegen_impl asks whether anything was written
        if "\n" in value or "\r" in value:
            self.line_starts.extend(self.offset + m.end() for m in _NEWLINE.finditer(value))
        self.offset += len(value)

    def pop_trailing_newline(self) -> None:
        pass  # libcst's provider keeps its line and column past the dropped newline too

    def before_codegen(self, node: cst.CSTNode) -> None:
        self.stack.append(self.offset)

    def after_codegen(self, node: cst.CSTNode) -> None:
        start = self.stack.pop()
        key = id(node)
        self.starts[key] = start
        if key not in self.spans:  # a syntactic range recorded inside wins
            self.spans[key] = (start, self.offset)

    def record_syntactic_position(self, node, *, start_node=None, end_node=None) -> _Syntactic:  # type: ignore[override]
        return _Syntactic(self, node, start_node, end_node)
