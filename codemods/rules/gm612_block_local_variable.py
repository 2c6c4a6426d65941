from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from graphmend.builders import assign_line
from graphmend.messages import explains
from graphmend.rule import Rule
from graphmend.targets import DYNAMIC, EXPORT, GRAPH, STRICT, breaks

_BRANCH_ERROR = "The local variable '{name}' is not defined in false branch, but defined in true branch"
_LOOP_ERROR = "The local variable '{name}' defined in the '{loop}' loop body cannot be used outside of the loop body"


class BlockLocalVariable(Rule):
    """A name bound only inside an `if` branch or a loop body, then read after it → `name = None` before.

    What it does:
        Finds a local name of graph code that gets its value only in some branches of an `if` (or only
        in the body of a `for`/`while` loop, the loop variable included), has no value before that
        statement, and is read after it:
            if x.shape[0] > 1:
                y = x * 2
            return y
        A later `if` that binds it again on some paths only (`if not skip: out = …` then
        `if skip: out = …`, HuBERT's and wav2vec2's encoders) does not count as a value; one that binds
        it on every path does. Branches that end in `return`, `raise`, `break` or `continue` need no
        value. `if` conditions made only of the Cell's own attributes and constants (`if self.use_bias:`,
        `if self.n > 2:`) are decided while MindSpore parses and are never reported. The fix binds the name to `None`
        right before the statement (before the outermost loop around it, so that a value kept from an
        earlier iteration is not reset). When the condition is a tensor (`if x.sum() > 0:`, a `while`
        on a tensor) the finding is reported without a fix: STRICT cannot join `None` with a tensor.

    Why it breaks graph mode:
        MindSpore's parser requires a name read after a block to exist on every path through it, even
        when the condition is a shape or an argument that a compile decides (measured on 2.10,
        bench/limits row 25 and the Cell of tests/verify_rules/limits/gm612_block_local_variable.py):
        GRAPH, STRICT, a dynamic batch and export all fail with "The local variable 'y' is not defined
        in false branch, but defined in true branch" — for `if flag:` on an argument, `if m is None:`,
        `isinstance`, `x.ndim == 2` and `x.shape[0] > 1` alike — and with "The local variable 'w'
        defined in the 'for' loop body cannot be used outside of the loop body" for every loop, over
        `range(3)`, a tuple or a tensor (or "The name 'out' is not defined, or not supported in graph
        mode" where the first read is inside a later loop). A read guarded by the same condition
        (`if output_attentions: out, w = out` … `if output_attentions: return out, w`, the HuggingFace
        ports' form) fails the same way (row 25, `branch_var_guarded_read`), and so do two complementary
        `if`s (`branch_var_complementary_ifs`). PyNative runs all of them. With `y = None`
        before the statement all of them run in every configuration with PyNative's numbers, except a tensor condition:
        GRAPH then runs, but STRICT fails with "Cannot join the return values of different branches".

    Example:
        for i in range(3):
            out = self.blocks[i](x)
        return out
        # becomes
        out = None
        for i in range(3):
            out = self.blocks[i](x)
        return out

    Fix safety:
        Safe: a name bound before the statement changes nothing on a path where the branch or the loop
        ran; the only paths that differ are those where the original raised `UnboundLocalError`
        (PyNative) and now read `None`.
    """

    CODE = "GM612"
    NAME = "block-local-variable"
    BREAKS = breaks(GRAPH, STRICT, DYNAMIC, EXPORT, note="a name read after the block must be bound on every path")
    # the loop's message ("… defined in the 'for' loop body cannot be used outside …") is measured by
    # bench/limits row 25 only: the rule's Cell raises the branch's first, and EXPLAINS holds what it raised
    EXPLAINS = (
        explains(
            r"The local variable '(?P<name>\w+)' is not defined in (?:false|true) branch",
            GRAPH,
            STRICT,
            DYNAMIC,
            EXPORT,
        ),
        # a name bound only under `if a:` and `if not a:` (two ifs, neither with an `else`), read after both:
        # mindnlp's HuBERT and wav2vec2 encoders' `layer_outputs` (bench/realcells: every mode fails with it;
        # the fix removes it where nothing else fails, GRAPH and the dynamic batch)
        explains(r"The name '(?P<name>\w+)' is not defined, or not supported in graph mode", GRAPH, DYNAMIC),
    )
    FIX = "safe"

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        if self.ctx.current is None or node is not self.ctx.current.node:
            return False
        events = _Events.of(node)
        reported: dict[str, list[_Span]] = {}
        for span in events.spans:
            names = self._names(span, events, reported)
            if names:
                for name in names:
                    reported.setdefault(name, []).append(span)
                self._report(span, names)
        return False

    def _names(self, span: _Span, events: _Events, reported: dict[str, list[_Span]]) -> list[str]:
        statement = span.node
        if isinstance(statement, cst.If) and all(_decided_by_parser(t) for t in _tests(statement)):
            return []
        definite: set[str] | None = _definite([statement], events.walrus) if isinstance(statement, cst.If) else set()
        if definite is not None and events.walrus and isinstance(statement, cst.While):  # its test runs once at least
            definite |= _always_bound(statement.test)
        found = []
        for name in dict.fromkeys(n for n, kind in events.events[span.start : span.end] if kind == "store"):
            if definite is None or name in definite or name in events.params or name in events.declared:
                continue
            if any(kind == "store" for n, kind in events.events[: span.start] if n == name):
                continue
            after = _first_use_after(name, span, events)
            if after != "load" or any(s.start <= span.start and span.end <= s.end for s in reported.get(name, [])):
                continue
            found.append(name)
        return found

    def _report(self, span: _Span, names: list[str]) -> None:
        statement = span.node
        keyword = "if" if isinstance(statement, cst.If) else "for" if isinstance(statement, cst.For) else "while"
        listed = ", ".join(f"`{n}`" for n in names)
        if keyword == "if":
            where = "in only some branches of the `if`"
            error = _BRANCH_ERROR.format(name=names[0])
        else:
            own = " (its loop variable)" if _targets_of(span) & set(names) else ""
            where = f"in the body of the `{keyword}` loop{own}"
            error = _LOOP_ERROR.format(name=names[0], loop=keyword)
        message = (
            f"{listed} {'is' if len(names) == 1 else 'are'} bound {where} in {self.ctx.where()} and read after it, "
            f'with no value before it: MindSpore\'s graph compiler rejects that on every path ("{error}")'
        )
        inits = "; ".join(f"{n} = None" for n in names)
        tensor = [t for t in _tests(statement) if self.values.depends_on_tensor(t)]
        if tensor:
            self.report(
                statement,
                f"{message}; not rewritten: the condition is a tensor, and STRICT and export cannot join `None` "
                f'with a tensor ("Cannot join the return values of different branches"): give {listed} a tensor '
                f"of the branch's shape and dtype before it, or a value in every branch",
            )
            return
        anchor = self._anchor(statement)
        lines = [assign_line(n, cst.Name("None")) for n in names]
        lines[0] = lines[0].with_changes(leading_lines=anchor.leading_lines)
        replacement = cst.FlattenSentinel([*lines, anchor.with_changes(leading_lines=())])
        before = "" if anchor is statement else " (before the loop around it)"
        self.report(statement, f"{message}; bind it before: `{inits}`{before}", replacement, target=anchor)

    def _anchor(self, statement: cst.BaseCompoundStatement) -> cst.BaseCompoundStatement:
        """The statement itself, or the outermost loop around it in the function."""
        anchor, node = statement, statement
        function = self.ctx.current.node if self.ctx.current else None
        while node is not function and node in self.ctx.parents:
            node = self.ctx.parents[node]
            if isinstance(node, cst.For | cst.While):
                anchor = node
        return anchor


@dataclass
class _Span:
    node: cst.If | cst.For | cst.While
    start: int  # index of its first event
    end: int = 0  # index after its last event


@dataclass
class _Events(cst.CSTVisitor):
    """Every read and write of a local name of one function, in the order Python evaluates them."""

    events: list[tuple[str, str]] = field(default_factory=list)  # (name, "load" | "store" | "del")
    spans: list[_Span] = field(default_factory=list)  # the `if` chains and loops, outermost first
    params: set[str] = field(default_factory=set)
    declared: set[str] = field(default_factory=set)  # global / nonlocal
    walrus: bool = False  # an assignment expression anywhere in the function

    def __post_init__(self) -> None:
        super().__init__()

    @classmethod
    def of(cls, function: cst.FunctionDef) -> _Events:
        events = cls()
        params = function.params
        for param in (*params.posonly_params, *params.params, *params.kwonly_params):
            events.params.add(param.name.value)
        for star in (params.star_arg, params.star_kwarg):
            if isinstance(star, cst.Param):
                events.params.add(star.name.value)
        function.body.visit(events)
        return events

    def _store(self, target: cst.CSTNode) -> None:
        if isinstance(target, cst.Name):
            self.events.append((target.value, "store"))
        elif isinstance(target, cst.Tuple | cst.List):
            for element in target.elements:
                self._store(element.value)
        elif isinstance(target, cst.StarredElement):
            self._store(target.value)
        else:  # `a[i] = v`, `self.x = v`: reads `a`, `i`, `self`
            target.visit(self)

    def _block(self, node: cst.If | cst.For | cst.While, *parts: cst.CSTNode | None) -> None:
        span = _Span(node, len(self.events))
        self.spans.append(span)
        for part in parts:
            if part is not None:
                part.visit(self)
        span.end = len(self.events)

    def visit_Name(self, node: cst.Name) -> None:
        self.events.append((node.value, "load"))

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        node.value.visit(self)
        return False

    def visit_Arg(self, node: cst.Arg) -> bool:
        node.value.visit(self)
        return False

    def visit_Assign(self, node: cst.Assign) -> bool:
        node.value.visit(self)
        for target in node.targets:
            self._store(target.target)
        return False

    def visit_AnnAssign(self, node: cst.AnnAssign) -> bool:
        if node.value is not None:
            node.value.visit(self)
            self._store(node.target)
        return False

    def visit_AugAssign(self, node: cst.AugAssign) -> bool:
        node.value.visit(self)
        node.target.visit(self)
        self._store(node.target)
        return False

    def visit_NamedExpr(self, node: cst.NamedExpr) -> bool:
        self.walrus = True
        node.value.visit(self)
        self._store(node.target)
        return False

    def visit_Del(self, node: cst.Del) -> bool:
        targets = node.target.elements if isinstance(node.target, cst.Tuple) else [node.target]
        for target in targets:
            value = target.value if isinstance(target, cst.Element) else target
            if isinstance(value, cst.Name):
                self.events.append((value.value, "del"))
            else:
                value.visit(self)
        return False

    def visit_If(self, node: cst.If) -> bool:
        self._block(node, node.test, node.body, node.orelse)
        return False

    def visit_For(self, node: cst.For) -> bool:
        node.iter.visit(self)
        span = _Span(node, len(self.events))
        self.spans.append(span)
        self._store(node.target)
        node.body.visit(self)
        if node.orelse is not None:
            node.orelse.visit(self)
        span.end = len(self.events)
        return False

    def visit_While(self, node: cst.While) -> bool:
        self._block(node, node.test, node.body, node.orelse)
        return False

    def visit_WithItem(self, node: cst.WithItem) -> bool:
        node.item.visit(self)
        if node.asname is not None:
            self._store(node.asname.name)
        return False

    def visit_ExceptHandler(self, node: cst.ExceptHandler) -> bool:
        if node.type is not None:
            node.type.visit(self)
        if node.name is not None:
            self._store(node.name.name)
        node.body.visit(self)
        return False

    def visit_Import(self, node: cst.Import) -> bool:
        for alias in node.names:
            bound = alias.asname.name if alias.asname else alias.name
            while isinstance(bound, cst.Attribute):
                bound = bound.value
            self._store(bound)
        return False

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        if not isinstance(node.names, cst.ImportStar):
            for alias in node.names:
                self._store(alias.asname.name if alias.asname else alias.name)
        return False

    def visit_Global(self, node: cst.Global) -> bool:
        self.declared.update(item.name.value for item in node.names)
        return False

    def visit_Nonlocal(self, node: cst.Nonlocal) -> bool:
        self.declared.update(item.name.value for item in node.names)
        return False

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        for decorator in node.decorators:
            decorator.visit(self)
        self._store(node.name)
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        self._store(node.name)
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def _comprehension(self, node: cst.BaseComp) -> bool:
        """Reads of the names around it; its own loop variables are its own."""
        loops: list[cst.CompFor] = []
        part = node.for_in
        while part is not None:
            loops.append(part)
            part = part.inner_for_in
        reads = _Events()
        for loop in loops:
            reads._store(loop.target)
        own = {n for n, _ in reads.events}
        inner = _Events()
        for child in node.children:
            child.visit(inner)
        self.events.extend((n, "load") for n, kind in inner.events if kind == "load" and n not in own)
        return False

    def visit_ListComp(self, node: cst.ListComp) -> bool:
        return self._comprehension(node)

    def visit_SetComp(self, node: cst.SetComp) -> bool:
        return self._comprehension(node)

    def visit_DictComp(self, node: cst.DictComp) -> bool:
        return self._comprehension(node)

    def visit_GeneratorExp(self, node: cst.GeneratorExp) -> bool:
        return self._comprehension(node)

    def visit_CompFor(self, node: cst.CompFor) -> bool:  # inside `_comprehension`'s own walk
        node.iter.visit(self)
        for condition in node.ifs:
            condition.visit(self)
        if node.inner_for_in is not None:
            node.inner_for_in.visit(self)
        return False


def _first_use_after(name: str, span: _Span, events: _Events) -> str | None:
    """What happens to `name` first after `span`: "load", "del", or "store" — a store inside a later
    block counts only where that block binds it on every path (an `if` with an `else`, both binding):
    `if a: y = 1` then `if not a: y = 2` then `return y` still fails ("not defined in false branch",
    measured), and so does HuBERT's `layer_outputs` in `if not skip:` … `if skip:` … ."""
    index = span.end
    while index < len(events.events):
        found, kind = events.events[index]
        if found != name:
            index += 1
            continue
        if kind != "store":
            return kind
        later = [s for s in events.spans if span.end <= s.start <= index < s.end]
        if not later:
            return kind
        outer = min(later, key=lambda s: (s.start, -s.end))
        if isinstance(outer.node, cst.If):
            definite = _definite([outer.node], events.walrus)
            if definite is None or name in definite:
                return kind
        # bound on some paths of a later block: its own reads after the store have it (a loop variable
        # read in its loop), the reads after the block may not
        index = max(later, key=lambda s: (s.start, -s.end)).end
    return None


def _tests(statement: cst.BaseCompoundStatement) -> list[cst.BaseExpression]:
    """The conditions of an `if` chain (every `elif`), or of a `while`; none for a `for`."""
    if isinstance(statement, cst.While):
        return [statement.test]
    tests = []
    node: object = statement
    while isinstance(node, cst.If):
        tests.append(node.test)
        node = node.orelse
    return tests


def _targets_of(span: _Span) -> set[str]:
    if not isinstance(span.node, cst.For):
        return set()
    names = _Events()
    names._store(span.node.target)
    return {n for n, kind in names.events if kind == "store"}


def _decided_by_parser(test: cst.BaseExpression) -> bool:
    """`self.flag`, `self.n > 2`, `not self.a and self.b`: MindSpore folds these while parsing (measured)."""
    if isinstance(test, cst.Attribute):
        return _decided_by_parser(test.value)
    if isinstance(test, cst.Name):
        return test.value in {"self", "True", "False", "None"}
    if isinstance(test, cst.Integer | cst.Float | cst.SimpleString):
        return True
    if isinstance(test, cst.UnaryOperation):
        return _decided_by_parser(test.expression)
    if isinstance(test, cst.BooleanOperation | cst.BinaryOperation):
        return _decided_by_parser(test.left) and _decided_by_parser(test.right)
    if isinstance(test, cst.Comparison):
        return _decided_by_parser(test.left) and all(_decided_by_parser(c.comparator) for c in test.comparisons)
    return False


def _definite(statements, walrus: bool = False) -> set[str] | None:
    """The names every path through `statements` binds; None: no path falls through (all return/raise).
    `walrus`: the function has an assignment expression somewhere (most have none, and looking is a walk)."""
    bound: set[str] = set()
    for statement in statements:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, cst.Return | cst.Raise | cst.Break | cst.Continue):
                    return None
                if walrus and isinstance(small, cst.Assign | cst.AnnAssign | cst.Expr) and small.value is not None:
                    bound |= _always_bound(small.value)
                if isinstance(small, cst.Assign):
                    for target in small.targets:
                        bound |= _names_of(target.target)
                elif isinstance(small, cst.AnnAssign) and small.value is not None:
                    bound |= _names_of(small.target)
        elif isinstance(statement, cst.If):
            if walrus:
                bound |= _always_bound(statement.test)
            body = _definite(_lines(statement.body), walrus)
            if isinstance(statement.orelse, cst.If):
                orelse = _definite([statement.orelse], walrus)
            elif isinstance(statement.orelse, cst.Else):
                orelse = _definite(_lines(statement.orelse.body), walrus)
            else:
                orelse = set()
            if body is None and orelse is None:
                return None
            bound |= orelse if body is None else body if orelse is None else body & orelse
        elif isinstance(statement, cst.With):
            inner = _definite(_lines(statement.body), walrus)
            if inner is None:
                return None
            bound |= inner
        elif isinstance(statement, cst.Try):
            orelse = _lines(statement.orelse.body) if statement.orelse else []
            paths = [_definite([*_lines(statement.body), *orelse], walrus)]
            paths += [_definite(_lines(handler.body), walrus) for handler in statement.handlers]
            falls = [p for p in paths if p is not None]
            final = _definite(_lines(statement.finalbody.body), walrus) if statement.finalbody else set()
            if not falls or final is None:
                return None
            bound |= set.intersection(*falls) | final
        elif isinstance(statement, cst.FunctionDef | cst.ClassDef):
            bound.add(statement.name.value)
    return bound


def _always_bound(node: cst.CSTNode) -> set[str]:
    """The names an expression binds with `:=` whenever it is evaluated: `if not isinstance(m := mask, dict):`
    binds `m` on every path through the `if`. Not a walrus behind `and`/`or`, inside a conditional
    expression's branches, a comprehension (it may run no iteration) or a lambda."""
    if isinstance(node, cst.NamedExpr):
        return _names_of(node.target) | _always_bound(node.value)
    if isinstance(node, cst.BooleanOperation):
        return _always_bound(node.left)
    if isinstance(node, cst.IfExp):
        return _always_bound(node.test)
    if isinstance(node, cst.BaseComp | cst.Lambda):
        return set()
    bound: set[str] = set()
    for child in node.children:
        bound |= _always_bound(child)
    return bound


def _names_of(target: cst.BaseExpression) -> set[str]:
    events = _Events()
    events._store(target)
    return {n for n, kind in events.events if kind == "store"}


def _lines(suite: cst.BaseSuite) -> list[cst.BaseStatement]:
    if isinstance(suite, cst.SimpleStatementSuite):  # `if c: y = 1` on one line
        return [cst.SimpleStatementLine(body=suite.body)]
    return list(suite.body)
