"""Source → findings and fixes: parse, find graph code, run the rules, apply fixes to a fixpoint."""

from __future__ import annotations

import bisect
import difflib
import operator
from collections.abc import Callable, Sequence, Set
from dataclasses import dataclass

import libcst as cst
from libcst._nodes.internal import CodegenState
from libcst.metadata import CodeRange, MetadataWrapper

from graphmend import suppressions
from graphmend.definitions import add_definitions
from graphmend.finding import Edit, Finding, Import
from graphmend.imports import add_imports
from graphmend.incremental import Reparser
from graphmend.names import ModuleBindings, QualifiedNames, resolve_scopes
from graphmend.rule import FileContext, Report, Rule, visitor_names
from graphmend.scopes import find_graph_code
from graphmend.tree import visit_batched

# Each pass applies the fixes that do not overlap; nested ones land in the next pass.
MAX_PASSES = 10


class FixError(Exception):
    """A fix produced code that does not parse: graphmend's bug, never written to disk."""


@dataclass(frozen=True)
class FixResult:
    output: str | bytes  # the same type as the input
    applied: tuple[Finding, ...]  # fixes applied, located in the code of the pass that applied them
    remaining: tuple[Finding, ...]  # findings in the output (not fixable, or unsafe and not asked)
    # libcst printed the source back byte for byte (known only when a fix was applied: otherwise the
    # output is the source): when it does not, the output differs from the source outside the fixes too
    reproduces: bool = True

    @property
    def findings(self) -> tuple[Finding, ...]:
        return self.applied + self.remaining


def parse(source: str | bytes) -> cst.Module:
    """Parse a whole file. Bytes honour coding cookies and BOMs, and `Module.bytes` restores them."""
    return cst.parse_module(source)


def analyze(
    module: cst.Module, path: str, rules: Sequence[type[Rule]], text: str | None = None, memo: Reparser | None = None
) -> FileContext:
    """Run `rules` over the graph code of `module` (whose code is `text`, when the caller has it); the
    reports land in the returned context. `memo` keeps positions and parents per top-level statement."""
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    scopes = resolve_scopes(wrapper)
    qualified = QualifiedNames(scopes)
    graph = find_graph_code(module, qualified)
    ctx = FileContext(
        path=path,
        wrapper=wrapper,
        qualified=qualified,
        scopes=scopes,
        bindings=ModuleBindings(scopes[module]),  # type: ignore[arg-type]
        graph_functions=graph.functions,
        cell_classes=graph.cells,
        calls=graph.calls,
        text=text,
        memo=memo,
    )
    visitors: dict[str, list[Rule]] = {"module": [], "cells": [], "graph": []}
    for rule in rules:
        if visitor_names(rule):  # GM000 visits nothing: the engine checks suppressions itself
            visitors[rule.VISITS].append(rule(ctx))
    if visitors["module"]:
        visit_batched(module, visitors["module"])
    for cls in ctx.cell_classes if visitors["cells"] else ():
        visit_batched(cls, visitors["cells"])
    for function in ctx.graph_functions if visitors["graph"] else ():
        ctx.current = function
        visit_batched(function.node, visitors["graph"])
    ctx.current = None
    return ctx


def check(
    source: str | bytes, path: str, rules: Sequence[type[Rule]], incremental: Reparser | None = None
) -> list[Finding]:
    """The findings of `rules` in `source`. With `incremental` (the language server's, for one buffer), the
    tree, positions and parents of the buffer's last version are reused where an edit left them as they
    were: the same tree, positions and parents, so the same findings (graphmend.incremental)."""
    module = incremental.parse(source) if incremental else parse(source)
    ctx = analyze(module, path, rules, _text(source, module), incremental)
    directives = suppressions.parse_directives(ctx.source)
    findings = [_finding(ctx, r) for r in _visible(ctx, directives)]
    return suppressions.apply(findings, directives, path, {rule.CODE for rule in rules})


def fix(source: str | bytes, path: str, rules: Sequence[type[Rule]], unsafe: bool = False) -> FixResult:
    """Apply fixes until none is left to apply; raises FixError if a result would not parse."""
    # one Reparser for all the passes: a pass parses again only the top-level statements its fixes changed,
    # and prints (positions) and walks (parents) only those
    memo = Reparser()
    module = memo.parse(source)
    text = _text(source, module)
    applied: list[Finding] = []
    reproduces = True
    for _ in range(MAX_PASSES):
        ctx = analyze(module, path, rules, text, memo)
        reports = _visible(ctx, suppressions.parse_directives(text))
        chosen = _non_overlapping(ctx, [r for r in reports if _applies(r, unsafe)])
        if not chosen:
            break
        if not applied:  # the first pass that changes something: is the source libcst's code?
            reproduces = module.bytes == source if isinstance(source, bytes) else module.code == source
        applied += (_finding(ctx, r) for r in chosen)
        module, text = _reparse(_apply(ctx, chosen), path, memo, module, text, ctx.positions.code_offset)
    else:  # out of passes: report what is left in the last result
        ctx = analyze(module, path, rules, text, memo)
    directives = suppressions.parse_directives(text)
    remaining = [_finding(ctx, r) for r in _visible(ctx, directives)]
    remaining = suppressions.apply(remaining, directives, path, {rule.CODE for rule in rules})
    unused = [f for f in remaining if f.code == suppressions.UNUSED_CODE and f.fix == "safe"]
    if unused:  # GM000's fix is a text edit of comments: it changes no other finding, only their lines
        if not applied:
            reproduces = module.bytes == source if isinstance(source, bytes) else module.code == source
        applied += unused
        module, text = _reparse(_with_text(module, apply_edits(text, [e for f in unused for e in f.edits])), path)
        ctx = analyze(module, path, rules, text)
        directives = suppressions.parse_directives(text)
        remaining = [_finding(ctx, r) for r in _visible(ctx, directives)]
        remaining = suppressions.apply(remaining, directives, path, {rule.CODE for rule in rules})
    output = text.encode(module.encoding) if isinstance(source, bytes) else text
    return FixResult(output, tuple(applied), tuple(remaining), reproduces)


def apply_edits(text: str, edits: Sequence[Edit]) -> str:
    """`text` with `edits` made (1-based lines and columns on `text`); an edit overlapping one before it
    is left out."""
    starts = line_offsets(text)
    spans, last = [], -1
    for edit in sorted(edits):
        start = starts[edit.line - 1] + edit.column - 1
        end = starts[edit.end_line - 1] + edit.end_column - 1
        if start >= last:
            spans.append((start, end, edit.content))
            last = end
    for start, end, content in reversed(spans):
        text = text[:start] + content + text[end:]
    return text


def _text(source: str | bytes, module: cst.Module) -> str:
    """The code of `module`, parsed from `source`, without generating it: the source itself, decoded as
    libcst decoded it (a BOM it keeps apart). libcst prints a file back as it read it (all 3,204 files of
    the corpus, the golden cases and the tests), except a final lone `\r` (files.py): a source with a
    lone `\r` gets libcst's code."""
    text = source if isinstance(source, str) else source.decode(module.encoding)
    text = text[1:] if text.startswith("\ufeff") else text
    return text if _prints_back(text) else module.code


def _prints_back(text: str) -> bool:
    return "\r" not in text or "\r" not in text.replace("\r\n", "")


def _with_text(module: cst.Module, text: str) -> cst.Module:
    """`text` parsed as `module` was: from bytes in its encoding, so a coding cookie or BOM is kept."""
    return cst.parse_module(text.encode(module.encoding))


def candidates(
    source: str | bytes,
    path: str,
    rules: Sequence[type[Rule]],
    unsafe: bool = False,
    only: Callable[[Finding], bool] | None = None,
) -> list[tuple[Finding, str | bytes]]:
    """Each fix that applies to `source` now, with the source as it is after that one fix alone.

    `only` picks the findings to fix (the editor asks for the fixes under the cursor, not every one).
    """
    module = parse(source)
    ctx = analyze(module, path, rules, _text(source, module))
    found = []
    for report in _visible(ctx, suppressions.parse_directives(ctx.source)):
        finding = _finding(ctx, report) if _applies(report, unsafe) else None
        if finding is not None and (only is None or only(finding)):
            fixed, text = _reparse(_apply(ctx, [report]), path)
            found.append((finding, text.encode(fixed.encoding) if isinstance(source, bytes) else text))
    return found


def _visible(ctx: FileContext, directives: suppressions.Directives) -> list[Report]:
    """The reports not silenced by a `# graphmend: ignore` comment (those are never fixed either)."""
    reports = _unique(ctx.reports)
    if directives.skip_file:
        return []
    if not directives.suppressions:
        return reports
    visible = []
    for report in reports:
        line = ctx.positions[report.node].start.line
        covering = [s for s in directives.suppressions if s.line == line and s.covers_code(report.rule.CODE)]
        for suppression in covering:
            suppression.used.add(report.rule.CODE)
        if not covering:
            visible.append(report)
    return visible


def _applies(report: Report, unsafe: bool) -> bool:
    return report.fix is not None and (unsafe or report.fix.applicability == "safe")


def _unique(reports: list[Report]) -> list[Report]:
    """One report per (rule, node): a node reached twice (e.g. a shared helper) is reported once."""
    seen: set[tuple[str, int]] = set()
    unique = []
    for report in reports:
        key = (report.rule.CODE, id(report.node))
        if key not in seen:
            seen.add(key)
            unique.append(report)
    return unique


def _non_overlapping(ctx: FileContext, reports: list[Report]) -> list[Report]:
    """Outermost first; a fix inside another one waits for the next pass."""
    ordered = sorted(reports, key=lambda r: _span(ctx.positions[_target(r)], outer_first=True))
    chosen: list[Report] = []
    taken: list[tuple[tuple[int, int], tuple[int, int]]] = []
    for report in ordered:
        start, end = _span(ctx.positions[_target(report)])
        if all(end <= s or start >= e for s, e in taken):
            chosen.append(report)
            taken.append((start, end))
    return chosen


def _target(report: Report) -> cst.CSTNode:
    """The node a report's fix replaces: the reported one, unless the fix names another."""
    return report.fix.target or report.node if report.fix else report.node


def _span(pos: CodeRange, outer_first: bool = False) -> tuple:
    start, end = (pos.start.line, pos.start.column), (pos.end.line, pos.end.column)
    if outer_first:
        return start, (-end[0], -end[1])
    return start, end


def _apply(ctx: FileContext, chosen: list[Report]) -> cst.Module:
    """The module with the fixes of `chosen` in place: only the nodes on the way from the module to a
    replaced node are rebuilt (libcst's transform of the whole tree copied every node of it, for each pass
    and each editor candidate: 0.3 s of a 3,000-line file), every other subtree is kept as it is."""
    replacements = {id(_target(r)): r.fix.replacement for r in chosen if r.fix}
    parents = ctx.parents
    path: set[int] = set()
    for report in chosen:
        current = parents.get(_target(report))
        while current is not None and id(current) not in path:
            path.add(id(current))
            current = parents.get(current)
    updated = ctx.module.visit(_Replace(replacements, path))
    updated = _add_imports(updated, {i for r in chosen if r.fix for i in r.fix.imports})
    return add_definitions(updated, [d for r in chosen if r.fix for d in r.fix.definitions])


def _add_imports(module: cst.Module, imports: Set[Import]) -> cst.Module:
    return add_imports(module, imports) if imports else module


def _edits(ctx: FileContext, report: Report) -> tuple[Edit, ...]:
    """Every text edit of the report's fix on the code it was found in: its replacement, and the import
    lines it adds or changes (computed once per set of imports and file)."""
    assert report.fix is not None
    imports = frozenset(report.fix.imports)
    if imports and imports not in ctx.import_edits:
        ctx.import_edits[imports] = import_edits(ctx.wrapper.module, imports, ctx.source)
    added = definition_edits(ctx.wrapper.module, report.fix.definitions, ctx.source)
    edits = (*ctx.import_edits.get(imports, ()), *added, _replacement_edit(ctx, report))
    return tuple(sorted(edits, key=lambda e: e[:4]))  # by place; insertions at one place keep their order


def definition_edits(module: cst.Module, definitions: Sequence[str], text: str) -> tuple[Edit, ...]:
    """The text edits that add the top-level `definitions` a fix needs (after the imports): insertions,
    and the blank line the statement after them may need."""
    if not definitions:
        return ()
    return line_edits(text, _code_after(module, add_definitions(module, definitions), text))


def import_edits(module: cst.Module, imports: Set[Import], text: str | None = None) -> tuple[Edit, ...]:
    """The text edits that add `imports` to `module`, each new line an insertion of its own (a blank line
    that opens a new section one too) and each import line that takes a name a replacement of that line.
    Two fixes that need `import mindspore` then insert the same line at the same place, which an editor
    or ruff-style applier makes once, whatever else either fix imports. `text` is the module's code."""
    old = module.code if text is None else text
    inserted = []
    before = suppressions.physical_lines(old)
    after = suppressions.physical_lines(_code_after(module, add_imports(module, imports, join=False), old))
    for tag, i1, i2, j1, j2 in _line_opcodes(before, after):
        if tag == "equal":
            continue
        lines = after[j1:j2]
        if tag != "insert":  # not expected (a new import line changes no line), but never a crash: one edit
            inserted.append(Edit(*_line_start(before, i1), *_line_start(before, i2), "".join(lines)))
            continue
        while i1 > 0 and lines[-1] == before[i1 - 1]:  # the same insertion, moved up past equal lines
            i1, lines = i1 - 1, [lines[-1], *lines[:-1]]
        place = _line_start(before, i1)
        inserted += [Edit(*place, *place, line) for line in lines]
    joined = line_edits(old, _code_after(module, add_imports(module, imports, new=False), old))
    return tuple(sorted((*inserted, *joined), key=lambda e: e[:4]))


def _code_after(
    module: cst.Module, changed: cst.Module, text: str, offset: Callable[[cst.CSTNode], int] | None = None
) -> str:
    """`changed.code`, where `changed` is `module` (whose code is `text`) with some top-level statements
    replaced or added (new imports): only the statements that are not `module`'s own objects are printed,
    spliced into `text` (printing a large module twice per set of imports took a third of a second). With
    `offset` (where a top-level statement of `module` starts in `text`: the positions `fix` printed), the
    statements before and the replaced ones are not printed either."""
    old, new = module.body, changed.body
    same_ends = len(module.header) == len(changed.header) and all(map(operator.is_, module.header, changed.header))
    same_ends = same_ends and changed.footer is module.footer
    first = 0
    while first < min(len(old), len(new)) and old[first] is new[first]:
        first += 1
    last = 0  # statements kept at the end: at least one, so that the end of the module prints as it did
    while last < min(len(old), len(new)) - first and old[-1 - last] is new[-1 - last]:
        last += 1
    if same_ends and first == len(old) == len(new):
        return text  # nothing to add
    if not same_ends or last == 0:
        return changed.code
    now = "".join(changed.code_for_node(node) for node in new[first : len(new) - last])
    if offset is not None:  # first <= len(old) - last < len(old): both statements exist
        return text[: offset(old[first])] + now + text[offset(old[len(old) - last]) :]
    start = sum(len(module.code_for_node(node)) for node in (*module.header, *old[:first]))
    was = "".join(module.code_for_node(node) for node in old[first : len(old) - last])
    if text[start : start + len(was)] != was:
        return changed.code
    return text[:start] + now + text[start + len(was) :]


def _line_opcodes(before: list[str], after: list[str]) -> list[tuple[str, int, int, int, int]]:
    """difflib's opcodes of two lists of lines, worked out on what lies between their common first and
    last lines (an import added near the top of a 6,000-line file leaves all but a few lines equal)."""
    head = 0
    while head < min(len(before), len(after)) and before[head] == after[head]:
        head += 1
    tail = 0
    while tail < min(len(before), len(after)) - head and before[-1 - tail] == after[-1 - tail]:
        tail += 1
    middle = difflib.SequenceMatcher(
        None, before[head : len(before) - tail], after[head : len(after) - tail], autojunk=False
    ).get_opcodes()
    return [(tag, i1 + head, i2 + head, j1 + head, j2 + head) for tag, i1, i2, j1, j2 in middle]


def _replacement_edit(ctx: FileContext, report: Report) -> Edit:
    node, replacement = _target(report), report.fix.replacement  # type: ignore[union-attr]
    pos = ctx.positions[node]
    code = _replacement_code(ctx, replacement)
    if isinstance(node, cst.BaseExpression) and not node.lpar and "\n" not in code and "\r" not in code:
        # the node's range is exactly its code (no parentheses outside it, no indentation to continue)
        return Edit(pos.start.line, pos.start.column + 1, pos.end.line, pos.end.column + 1, code)
    # parentheses (outside the node's range) or continued lines (indented by the blocks around it, which
    # the node alone does not know): the edit is what changes in the module with the replacement in place,
    # worked out on the innermost statement that holds the node, printed with the indentation of its
    # blocks (a transform and a printing of the whole file for each finding took seconds on a large file)
    text = ctx.source
    statement = _statement_around(ctx, node)
    offset, old = 0, text
    if statement is not None:
        offset, old = ctx.positions.code_offset(statement), _printed(ctx, statement, statement)  # type: ignore[attr-defined]
    if statement is not None and text[offset : offset + len(old)] == old:
        new = _printed(ctx, statement, statement.visit(_Replace({id(node): replacement})))
    else:  # not printed as it is in the file (a last line without a newline): the whole module
        offset, old = 0, text
        new = ctx.module.visit(_Replace({id(node): replacement})).code
    same = min(len(old), len(new))
    start = next((i for i in range(same) if old[i] != new[i]), same)
    tail = next((i for i in range(same - start) if old[-1 - i] != new[-1 - i]), same - start)
    starts = line_offsets(text)
    end = len(old) - tail
    return Edit(
        *_position(text, starts, offset + start), *_position(text, starts, offset + end), new[start : len(new) - tail]
    )


def _statement_around(ctx: FileContext, node: cst.CSTNode) -> cst.BaseStatement | None:
    """The innermost statement strictly around `node` (a statement's own replacement may remove it or
    make it several: its block's statement holds that), or None at the module's level."""
    parents = ctx.parents
    current = parents.get(node)
    while current is not None and not isinstance(current, cst.BaseStatement):
        current = parents.get(current)
    return current


def _printed(ctx: FileContext, statement: cst.BaseStatement, tree: cst.CSTNode) -> str:
    """`tree` (the statement, or what a fix makes of it) printed where the statement is: with the
    indentation of every block around it, as the module's printing gives it."""
    indents = []
    parents = ctx.parents
    current = parents.get(statement)
    while current is not None:
        if isinstance(current, cst.IndentedBlock):
            indents.append(ctx.module.default_indent if current.indent is None else current.indent)
        current = parents.get(current)
    state = CodegenState(default_indent=ctx.module.default_indent, default_newline=ctx.module.default_newline)
    for indent in reversed(indents):
        state.increase_indent(indent)
    tree._codegen(state)
    return "".join(state.tokens)


def _position(text: str, starts: list[int], offset: int) -> tuple[int, int]:
    """(line, column), 1-based, of `offset` in `text`, whose line starts are `starts` (as line_edits puts
    them: the end of a text that ends with a newline starts a line of its own; otherwise it ends the last)."""
    line = bisect.bisect_right(starts, offset) - 1
    if offset == len(text) and line > 0 and not text.endswith(("\n", "\r")):
        line -= 1
    return line + 1, offset - starts[line] + 1


def line_offsets(text: str) -> list[int]:
    """Where each line of `text` starts (line n at index n - 1), then the end of the text."""
    starts = [0]
    for line in suppressions.physical_lines(text):
        starts.append(starts[-1] + len(line))
    return starts


def line_edits(old: str, new: str) -> tuple[Edit, ...]:
    """The lines `new` changes in `old`, as whole-line edits on `old` (applied together, they give `new`)."""
    before, after = suppressions.physical_lines(old), suppressions.physical_lines(new)
    return tuple(
        Edit(*_line_start(before, i1), *_line_start(before, i2), "".join(after[j1:j2]))
        for tag, i1, i2, j1, j2 in _line_opcodes(before, after)
        if tag != "equal"
    )


def _line_start(lines: list[str], index: int) -> tuple[int, int]:
    """(line, column), 1-based, where line `index` (0-based) starts: past a last line without a newline,
    that line's end."""
    if index < len(lines) or not lines or lines[-1].endswith(("\n", "\r")):
        return index + 1, 1
    return len(lines), len(lines[-1]) + 1


class _Replace(cst.CSTTransformer):
    """Puts each replacement in place of its node; with `path` (the ids of every node above a replaced
    one), enters only those, so the rest of the tree is neither walked nor copied."""

    def __init__(self, replacements: dict[int, cst.CSTNode], path: set[int] | None = None) -> None:
        super().__init__()
        self.replacements = replacements
        self.path = path

    def on_visit(self, node: cst.CSTNode) -> bool:
        key = id(node)
        return key not in self.replacements and (self.path is None or key in self.path)

    def on_leave(self, original_node, updated_node):  # type: ignore[override]
        return self.replacements.get(id(original_node), updated_node)


def _reparse(
    module: cst.Module,
    path: str,
    memo: Reparser | None = None,
    old: cst.Module | None = None,
    old_text: str = "",
    offset: Callable[[cst.CSTNode], int] | None = None,
) -> tuple[cst.Module, str]:
    """`module` parsed from its code, and that code. With `old` (the module `module` was made from, whose code
    is `old_text`, its statements at `offset`) only the statements that changed are printed; with `memo`
    (which parsed `old`) only they are parsed again."""
    text = module.code if old is None else _code_after(old, module, old_text, offset)
    try:
        compile(text, path, "exec", dont_inherit=True)
        data = text.encode(module.encoding)
        parsed = memo.parse(data) if memo is not None else cst.parse_module(data)
    except (SyntaxError, cst.ParserSyntaxError) as exc:
        raise FixError(f"{path}: a fix produced code that does not parse ({exc}); nothing written") from exc
    return parsed, text if _prints_back(text) else parsed.code


def _replacement_code(ctx: FileContext, replacement) -> str:
    """The text a fix puts in place of its node: statements a line each, nothing for a removal."""
    if isinstance(replacement, cst.RemovalSentinel):
        return ""
    if isinstance(replacement, cst.FlattenSentinel):
        return "".join(ctx.code(node) for node in replacement.nodes)
    return ctx.code(replacement)


def _one_line(message: str) -> str:
    """A message quoting code that spans lines (`f(\n    a,\n)`) is still one line of output."""
    if "\n" not in message:
        return message
    return " ".join(part.strip() for part in message.splitlines() if part.strip())


def _finding(ctx: FileContext, report: Report) -> Finding:
    pos = ctx.positions[report.node]
    fix = report.fix
    return Finding(
        code=report.rule.CODE,
        name=report.rule.NAME,
        path=ctx.path,
        line=pos.start.line,
        column=pos.start.column + 1,
        end_line=pos.end.line,
        end_column=pos.end.column + 1,
        message=_one_line(report.message),
        fix=fix.applicability if fix else None,
        original=ctx.code(_target(report)),
        replacement=_replacement_code(ctx, fix.replacement) if fix else None,
        edits=_edits(ctx, report) if fix else (),
    )
