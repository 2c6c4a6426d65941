"""Parsing a buffer again after an edit: only the top-level statements around the change are parsed anew,
and only the new ones are printed (positions) and walked (parents).

The language server analyses a buffer after every change, and libcst's parse of the whole file was a
quarter of that analysis. libcst's nodes are immutable, so the top-level statements an edit does not touch
can be put, as they are, into the new version's `Module`: only a fragment of the text (the statements the
edit touches, with one unchanged statement on either side) is parsed, and the new module is the old one
with its body spliced.

The result is the tree `libcst.parse_module` gives for the whole new text (tests/test_incremental.py
compares them node for node after edits all over the golden cases and corpus-like files). Why the spliced
tree is that tree: the text before the fragment is the old text, so the tokenizer reaches the fragment at
a statement boundary of the old parse (no open bracket or string, no indentation); the fragment parses on
its own as a whole module, so it leaves the tokenizer in that state again before the unchanged statements
after it, which then parse as they did. Which comment lines belong to a block's footer and which to the
next statement depends on the statement before and the lines themselves: both are inside the fragment,
whose first and last statements are unchanged ones. What libcst works out from the whole file is kept
equal by refusing what could change it: the encoding and default newline (the first lines, never part of
the fragment), the default indentation (the first indented block, which must come before the fragment,
and the fragment's own must be the same) and the trailing newline (after the fragment). Anything else
(an edit in the first or last statements, a fragment that does not parse alone or leaves comments at its
end, an unusual file) is parsed whole, as before.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import libcst as cst
from libcst._nodes.internal import CodegenState
from libcst._parser.detect_config import convert_to_utf8
from libcst._parser.types.config import PartialParserConfig

from graphmend.positions import LazyPositions, Positions, Segment, statement_starts
from graphmend.tree import children, parent_map

_CONFIG = PartialParserConfig()
_SUITES = (cst.BaseCompoundStatement, cst.Else, cst.ExceptHandler, cst.ExceptStarHandler, cst.Finally)


@dataclass(frozen=True)
class _Parsed:
    text: str  # the source as libcst decoded it
    module: cst.Module
    starts: tuple[int, ...]  # where each top-level statement starts in `text` (its comment lines first), then its end
    first_indent: int  # the first top-level statement holding an indented block (the default indent's), or -1


class Reparser:
    """Parses successive versions of one buffer, each reusing the unchanged statements of the last."""

    def __init__(self) -> None:
        self._last: _Parsed | None = None
        self._module: cst.Module | None = None  # parsed whole, its statements' offsets not yet worked out
        self._text = ""
        self.reused = 0  # statements taken from the previous version by the last parse (for tests)
        # per top-level statement of the last version analysed, by id (each holds its statement)
        self._segments: dict[int, Segment] = {}  # its code generation, for positions
        self._parents: dict[int, tuple[cst.BaseStatement, dict]] = {}  # the parents of the nodes under it
        self._layout = ("", "")  # the default indent and newline those were printed with
        self._module_starts: list[int] | None = None  # statement_starts of `_module` ([] when it has none)

    def positions(
        self,
        module: cst.Module,
        parents: Callable[[], Mapping[cst.CSTNode, cst.CSTNode]] | None = None,
        candidates: Callable[[cst.CSTNode], list[cst.CSTNode]] | None = None,
    ) -> Positions | LazyPositions:
        """Positions of `module` (the last one parsed): each top-level statement printed when one of its nodes
        is asked for, unless it was printed for the last version (`LazyPositions`, with the statements'
        starts this parse worked out); `Positions(module)` for a module parsed otherwise."""
        if (module.default_indent, module.default_newline) != self._layout:
            self._segments.clear()
            self._layout = (module.default_indent, module.default_newline)
        known = self._starts_of(module)
        if known is None:
            return Positions(module, self._segments)
        text, starts = known
        kept = {id(statement) for statement in module.body}
        for key in [key for key in self._segments if key not in kept]:
            del self._segments[key]  # statements of older versions
        return LazyPositions(
            module, text, parents or (lambda: self.parents(module)), candidates or (lambda node: []), starts,
            self._segments,
        )  # fmt: skip

    def _starts_of(self, module: cst.Module) -> tuple[str, tuple[int, ...] | list[int]] | None:
        """(its text, where its statements start: empty when unknown) for the module this parser gave last;
        None for another."""
        if self._last is not None and self._last.module is module:
            return self._last.text, self._last.starts
        if self._module is module:
            if self._module_starts is None:
                self._module_starts = statement_starts(module, self._text) or []
            return self._text, self._module_starts
        return None

    def parents(self, module: cst.Module) -> dict[cst.CSTNode, cst.CSTNode]:
        """`parent_map(module)`, walking only the top-level statements not walked for the last version."""
        parents: dict[cst.CSTNode, cst.CSTNode] = {}
        kept = {}
        statements = {id(statement) for statement in module.body}
        for child in children(module):
            parents[child] = module
            if id(child) not in statements:  # a comment line of the header or footer
                parents.update(parent_map(child))
                continue
            entry = self._parents.get(id(child))
            if entry is None or entry[0] is not child:
                entry = (child, parent_map(child))  # type: ignore[assignment]
            kept[id(child)] = entry
            parents.update(entry[1])
        self._parents = kept  # type: ignore[assignment]
        return parents

    def parse(self, source: str | bytes) -> cst.Module:
        encoding, text = convert_to_utf8(source, partial=_CONFIG)
        self.reused = 0
        last = self._previous()
        if last is not None and last.module.encoding == encoding:
            if text == last.text:
                self.reused = len(last.module.body)
                return last.module
            spliced = self._splice(last, text)
            if spliced is not None:
                return spliced
        self._last, self._module, self._text, self._module_starts = None, None, "", None
        module = cst.parse_module(source)  # errors are the caller's, as for a whole parse
        self._module, self._text = module, text
        return module

    def _previous(self) -> _Parsed | None:
        """The last version with its statements' offsets (worked out only when a next version comes)."""
        if self._last is None and self._module is not None:
            module, text = self._module, self._text
            self._last = self._ast_offsets(module, text) or self._kept_offsets(module, text) or _offsets(module, text)
            self._module, self._text, self._module_starts = None, "", None
        return self._last

    def _ast_offsets(self, module: cst.Module, text: str) -> _Parsed | None:
        """`_offsets` from CPython's line numbers (`statement_starts`, checked on every corpus file against the
        printed module), without printing anything."""
        if not module.has_trailing_newline or len(module.body) < 4:
            return None
        starts = self._module_starts if self._module_starts is not None else statement_starts(module, text)
        if not starts:
            return None
        first_indent = next((i for i, statement in enumerate(module.body) if _indents(statement)), -1)
        return _Parsed(text, module, tuple(starts), first_indent)

    def _kept_offsets(self, module: cst.Module, text: str) -> _Parsed | None:
        """`_offsets` without printing the module, when `positions` printed each of its statements already
        (`graphmend fix` asks for positions before it applies a fix, then parses the result)."""
        if not module.has_trailing_newline or len(module.body) < 4:
            return None
        if (module.default_indent, module.default_newline) != self._layout:
            return None
        segments = []
        for statement in module.body:
            segment = self._segments.get(id(statement))
            if segment is None or segment.statement is not statement:
                return None
            segments.append(segment)
        layout = {"default_indent": module.default_indent, "default_newline": module.default_newline}
        ends = [CodegenState(**layout), CodegenState(**layout)]
        for line in module.header:
            line._codegen(ends[0])
        for line in module.footer:
            line._codegen(ends[1])
        starts = [sum(len(token) for token in ends[0].tokens)]
        for segment in segments:
            starts.append(starts[-1] + segment.length)
        if starts[-1] + sum(len(token) for token in ends[1].tokens) != len(text):
            return None
        first_indent = next((i for i, statement in enumerate(module.body) if _indents(statement)), -1)
        return _Parsed(text, module, tuple(starts), first_indent)

    def _splice(self, last: _Parsed, text: str) -> cst.Module | None:
        old, starts, body = last.text, last.starts, last.module.body
        count = len(body)
        same = min(len(old), len(text))
        prefix = _common_prefix(old, text, same)
        suffix = _common_suffix(old, text, same - prefix)
        changed_end = len(old) - suffix  # the change is old[prefix:changed_end]
        # the statement where the change starts (one past the last: in the footer)
        first = count if prefix >= starts[-1] else _chunk(starts, prefix)
        last_touched = _chunk(starts, max(changed_end - 1, prefix))
        to_end = max(changed_end - 1, prefix) >= starts[-1] or last_touched >= count - 2  # near or in the footer
        begin, end = first - 1, count - 1 if to_end else last_touched + 1  # an unchanged statement on either side
        if first < 0 or begin < 1 or (last_touched < 0 and not to_end):
            return None  # in the header or the first statements
        if last.first_indent < 0 or last.first_indent >= begin:
            return None  # the default indent must be settled before the fragment
        if starts[begin] < _third_line(old):
            return None  # the lines a coding cookie may be on
        shift = len(text) - len(old)
        # to the end of the file when the edit is in its last statements: the footer is the fragment's then
        fragment_start, fragment_end = starts[begin], len(text) if to_end else starts[end + 1] + shift
        fragment = text[fragment_start:fragment_end]
        try:
            parsed = cst.parse_module(fragment)
        except Exception:  # ParserSyntaxError, or anything libcst raises: the whole parse says what
            return None
        module = last.module
        if (parsed.default_indent != module.default_indent or parsed.default_newline != module.default_newline
                or (parsed.footer and not to_end) or not parsed.has_trailing_newline or not parsed.body):  # fmt: skip
            return None
        statements = list(parsed.body)
        if parsed.header:  # at the top of the fragment they are its header; in the file, its first statement's
            statements[0] = statements[0].with_changes(leading_lines=(*parsed.header, *statements[0].leading_lines))
        lengths = _lengths([*statements, *parsed.footer], module)
        if sum(lengths) != len(fragment):
            return None
        del lengths[len(statements) :]
        if to_end:
            spliced = module.with_changes(body=(*body[:begin], *statements), footer=parsed.footer)
        else:
            spliced = module.with_changes(body=(*body[:begin], *statements, *body[end + 1 :]))
        new_starts = [*starts[: begin + 1]]
        for length in lengths:
            new_starts.append(new_starts[-1] + length)
        if not to_end:
            new_starts += (start + shift for start in starts[end + 2 :])
        self._last = _Parsed(text, spliced, tuple(new_starts), last.first_indent)
        self.reused = count - (end + 1 - begin)
        return spliced


def _offsets(module: cst.Module, text: str) -> _Parsed | None:
    """Where each top-level statement of `module` (parsed from `text`) starts: one printing of the module.
    None when libcst does not print `text` back as it is, or the file ends without a newline."""
    if not module.has_trailing_newline or len(module.body) < 4:
        return None
    state = CodegenState(default_indent=module.default_indent, default_newline=module.default_newline)
    for line in module.header:
        line._codegen(state)
    starts = [sum(len(token) for token in state.tokens)]
    for statement in module.body:
        done = len(state.tokens)
        statement._codegen(state)
        starts.append(starts[-1] + sum(len(token) for token in state.tokens[done:]))
    for line in module.footer:
        line._codegen(state)
    if "".join(state.tokens) != text:
        return None
    first_indent = next((i for i, statement in enumerate(module.body) if _indents(statement)), -1)
    return _Parsed(text, module, tuple(starts), first_indent)


def _lengths(statements: list[cst.CSTNode], module: cst.Module) -> list[int]:
    state = CodegenState(default_indent=module.default_indent, default_newline=module.default_newline)
    lengths = []
    for statement in statements:
        done = len(state.tokens)
        statement._codegen(state)
        lengths.append(sum(len(token) for token in state.tokens[done:]))
    return lengths


def _indents(statement: cst.CSTNode) -> bool:
    """Whether the statement holds an indented block (the tokenizer's INDENT, whose width libcst takes as
    the file's default indent at the first one)."""
    todo = [statement]
    while todo:
        node = todo.pop()
        if isinstance(node, (cst.IndentedBlock, cst.Match)):
            return True
        if isinstance(node, _SUITES):
            todo += (child for child in children(node) if isinstance(child, (*_SUITES, cst.IndentedBlock)))
    return False


def _chunk(starts: tuple[int, ...], offset: int) -> int:
    """The statement whose text holds `offset` (-1: before the first one or past the last)."""
    if offset < starts[0] or offset >= starts[-1]:
        return -1
    low, high = 0, len(starts) - 1
    while high - low > 1:
        middle = (low + high) // 2
        if starts[middle] <= offset:
            low = middle
        else:
            high = middle
    return low


def _third_line(text: str) -> int:
    first = text.find("\n")
    second = text.find("\n", first + 1) if first >= 0 else -1
    return len(text) if second < 0 else second + 1


def _common_prefix(a: str, b: str, limit: int) -> int:
    low, high = 0, limit  # a[:low] == b[:low]; halving on slices compares in C
    while low < high:
        middle = (low + high + 1) // 2
        if a[low:middle] == b[low:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _common_suffix(a: str, b: str, limit: int) -> int:
    low, high = 0, limit
    while low < high:
        middle = (low + high + 1) // 2
        if a[len(a) - middle : len(a) - low] == b[len(b) - middle : len(b) - low]:
            low = middle
        else:
            high = middle - 1
    return low
