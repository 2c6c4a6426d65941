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

import bisect
import re
from collections.abc import Iterator, Mapping

import libcst as cst
from libcst._nodes.internal import CodegenState
from libcst._position import CodePosition, CodeRange

_NEWLINE = re.compile(r"\r\n?|\n")  # libcst's own


class Positions(Mapping[cst.CSTNode, CodeRange]):
    """The syntactic range of every node of `module` (PositionProvider's), keyed by node."""

    def __init__(self, module: cst.Module) -> None:
        state = _State(module.default_indent, module.default_newline)
        module._codegen(state)
        self._spans = state.spans  # id(node) → (start offset, end offset)
        self._starts = state.starts  # id(node) → where its code starts, leading whitespace and lines included
        self._lines = state.line_starts
        self._module = module  # keeps every node alive, so no id is reused while this lives

    def __getitem__(self, node: cst.CSTNode) -> CodeRange:
        start, end = self._spans[id(node)]
        return CodeRange(self._position(start), self._position(end))

    def __contains__(self, node: object) -> bool:
        return id(node) in self._spans

    def __iter__(self) -> Iterator[cst.CSTNode]:
        raise TypeError("Positions is looked up by node, not iterated")

    def __len__(self) -> int:
        return len(self._spans)

    def code_offset(self, node: cst.CSTNode) -> int:
        """Where the code libcst prints for `node` (a statement's comments and blank lines before it
        included) starts in the module's code."""
        return self._starts[id(node)]

    def _position(self, offset: int) -> CodePosition:
        line = bisect.bisect_right(self._lines, offset) - 1
        return CodePosition(line + 1, offset - self._lines[line])


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
