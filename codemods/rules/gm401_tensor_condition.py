from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from graphmend.rule import Rule
from graphmend.targets import DYNAMIC, EXPORT, breaks

_UPDATES = {
    "mindspore.ops.assign": "assign",
    "mindspore.ops.assign_add": "add",
    "mindspore.ops.assign_sub": "sub",
}
_DOUBLE_WHERE = (
    " (unsafe: ops.where evaluates both branches, so a NaN or Inf in the branch not taken still reaches the "
    "gradients — guard such an op with a second where, e.g. `ops.sqrt(ops.where(c, x, 1))`)"
)


class TensorCondition(Rule):
    """Python `if`/`while`/`x if c else y` on a tensor value in graph code → `ops.where` where possible.

    What it does:
        Finds control flow whose condition is a tensor's value (`x.mean() > 0`, `ops.reduce_sum(m) == 0`,
        `mask.any()`), in `construct` and other graph code. Conditions on shapes (`x.shape[0] > 2`), `None`
        checks, `isinstance`, config flags and `self.training` are Python values and never reported.
        These forms are rewritten to a select:
        - `if c: y = a` / `else: y = b` (several names too, or one branch only when the name already
          has a value) → `y = ops.where(c, a, b)`;
        - `if c: return a` / `else: return b`, or `return b` right after an `if` that opens its block
          → `return ops.where(c, a, b)`;
        - `a if c else b` → `ops.where(c, a, b)`;
        - `if c: ops.assign_add(self.p, d)` → `ops.assign(self.p, ops.where(c, self.p + d, self.p))`.
        Only when the condition is known to be a single value (a full reduction, compared with numbers),
        both sides are tensors of provably equal shape and dtype (the same names through elementwise
        arithmetic), and nothing in them draws random numbers or calls a Cell. Everything else on a
        tensor value — `while`, `break`, `raise`, branches of other shapes or with calls — is reported
        with what to do instead.

    Why it breaks graph mode:
        GRAPH_MODE compiles a tensor-conditioned `if` into a Switch of subgraphs: it runs, but a MindIR
        exported with a dynamic batch fails at its second batch size ("The actor already exists:
        Default/Switch-op"), and N ifs cost 2N+1 subgraphs and a slower step. `ops.where`
        is one node that runs everywhere, including the dynamic MindIR (re-measured on graphmend's own
        rewrite of tests/verify_rules/shapes_flow/gm401_tensor_condition.py: the original's dynamic
        MindIR failed at batch 3, the rewrite ran at batch 2 and 3). Seed article 002 recommends
        `ops.Select` for the same reason.

    Example:
        if x.mean() > 0:
            y = x * 2
        else:
            y = x - 1
        # becomes
        y = ops.where(x.mean() > 0, x * 2, x - 1)

    Fix safety:
        Unsafe: `ops.where` evaluates both branches. Forward values are equal (the untaken branch is
        discarded, NaNs included), but gradients flow through both: a branch that makes NaN or Inf
        where it is not taken (`ops.sqrt(x)` for negative x) turns gradients into NaN —
        guard it with a second where. A Parameter update becomes one unconditional assign of a selected
        value, so the update is no longer skipped but writes back the old value. Dtypes are taken as
        equal unless a side casts or compares; an integer tensor meeting a float literal in one branch
        only is promoted to float by the select. Conditions with `raise` are never rewritten: a select
        cannot raise.
    """

    CODE = "GM401"
    NAME = "tensor-condition"
    BREAKS = breaks(
        together=(DYNAMIC, EXPORT),
        note="a MindIR exported with a dynamic batch; every graph pays a subgraph per branch",
    )
    FIX = "unsafe"

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        self._handled: set[int] = set()  # ifs rewritten together with the return that follows them
        self._elifs: set[int] = set()  # an elif cannot be replaced by a statement

    # -- visitors -----------------------------------------------------------------------------------

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        """`if c: return a` opening a block of two statements, then `return b`."""
        if len(node.body) != 2 or not isinstance(node.body[0], cst.If):
            return
        first, second = node.body
        returned = _returned(second)
        if first.orelse is not None or returned is None or not self.values.depends_on_tensor(first.test):
            return
        body = _Branch.of(self, first.body)
        plan = self._plan(first, body, _Branch(returns=returned))
        if plan.problem is None:
            self._handled.add(id(first))
            header = _header(first.body).comment
            comments = [
                *([_as_line(header)] if header else []),
                *body.comments,
                *_comment_lines(second.leading_lines),
            ]
            statement = self._return(plan, first, comments, second.trailing_whitespace)  # type: ignore[union-attr]
            self._report(first, "`if`", node.with_changes(body=[statement]), plan.imports, node)

    def visit_If(self, node: cst.If) -> None:
        if isinstance(node.orelse, cst.If):
            self._elifs.add(id(node.orelse))
        if id(node) in self._handled or not self.values.depends_on_tensor(node.test):
            return
        if id(node) in self._elifs:
            self._report(node, "`elif`", why="`elif` chains are not rewritten: nest the selects by hand")
            return
        if isinstance(node.orelse, cst.If):
            self._report(node, "`if`", why="`elif` chains are not rewritten: nest the selects by hand")
            return
        body = _Branch.of(self, node.body)
        orelse = _Branch.of(self, node.orelse.body) if node.orelse else _Branch()
        plan = self._plan(node, body, orelse)
        if plan.problem is not None:
            self._report(node, "`if`", why=plan.problem)
            return
        comments = [*body.comments, *_else_comments(node.orelse), *orelse.comments]
        if plan.returns:
            replacement = self._return(plan, node, comments, _header(node.body))
        else:
            replacement = self._assignment(plan, node, comments)
        self._report(node, "`if`", replacement, plan.imports)

    def visit_IfExp(self, node: cst.IfExp) -> None:
        if not self.values.depends_on_tensor(node.test):
            return
        problem = self._select_problem(node.test, [(node.body, node.orelse)])
        if problem is not None:
            self._report(node, "`… if … else …`", why=problem)
            return
        where, needed = self._where(node.test, node.body, node.orelse)
        self._report(node, "`… if … else …`", where.with_changes(lpar=node.lpar, rpar=node.rpar), (needed,))

    def visit_While(self, node: cst.While) -> None:
        if self.values.depends_on_tensor(node.test):
            self._report(
                node,
                "`while`",
                why=f"a loop on a tensor value has no bounded rewrite: loop a fixed number of times and "
                f"{_RUNNING_MASK}, or move the loop out of graph code",
            )

    # -- planning -----------------------------------------------------------------------------------

    def _plan(self, node: cst.If, body: _Branch, orelse: _Branch) -> _Plan:
        problem = body.problem or orelse.problem
        if problem is not None:
            return _Plan(problem=problem)
        if body.returns is not None or orelse.returns is not None:
            if body.returns is None or orelse.returns is None or body.values or orelse.values:
                return _Plan(problem="only one branch returns: give both a `return` of the same shape")
            problem = self._select_problem(node.test, [(body.returns, orelse.returns)])
            return _Plan(problem=problem, returns=(body.returns, orelse.returns))
        if body.updates or orelse.updates:
            return self._plan_update(node, body, orelse)
        names = list(dict.fromkeys([*body.values, *orelse.values]))
        if not names:
            return _Plan(problem="the branches assign nothing a select could choose")
        pairs = []
        for name in names:
            if (name not in body.values or name not in orelse.values) and not self._bound_before(name, node):
                return _Plan(problem=f"`{name}` has no value before the `if` for the other branch to keep")
            pairs.append((body.values.get(name, cst.Name(name)), orelse.values.get(name, cst.Name(name))))
        problem = self._select_problem(node.test, pairs)
        return _Plan(problem=problem, names=names, pairs=pairs)

    def _plan_update(self, node: cst.If, body: _Branch, orelse: _Branch) -> _Plan:
        targets = {*body.updates, *orelse.updates}
        if body.values or orelse.values or len(targets) != 1:
            return _Plan(problem="Parameter updates are rewritten only alone, one Parameter per `if`")
        (target,) = targets
        sides = [body.updates.get(target), orelse.updates.get(target)]
        parameter = next(u.parameter for u in sides if u is not None)
        values = [u.new_value() if u is not None else parameter for u in sides]
        problem = self._condition_problem(node.test)
        if problem is None and not all(self.values.is_pure(v) for v in values):
            problem = _IMPURE
        return _Plan(problem=problem, update=(parameter, values[0], values[1]))

    def _condition_problem(self, test: cst.BaseExpression) -> str | None:
        if not self.values.is_tensor(test):
            return _PYTHON_VALUE
        if not self.values.is_scalar_tensor(test):
            return _NOT_SCALAR
        if not self.values.is_pure(test):
            return "the condition calls something that may draw random numbers or change state"
        return None

    def _select_problem(
        self, test: cst.BaseExpression, pairs: list[tuple[cst.BaseExpression, cst.BaseExpression]]
    ) -> str | None:
        """Why `ops.where(test, a, b)` would differ from the branches for some (a, b), or None."""
        problem = self._condition_problem(test)
        if problem is not None:
            return problem
        if not all(self.values.is_pure(v) for pair in pairs for v in pair):
            return _IMPURE
        for a, b in pairs:
            if not (self.values.is_tensor(a) and self.values.is_tensor(b)):
                return f"`{_short(self.ctx, a)}` / `{_short(self.ctx, b)}` are not both known to be tensors"
            key = self.values.shape_key(a)
            if key is None or key != self.values.shape_key(b):
                sides = f"`{_short(self.ctx, a)}` and `{_short(self.ctx, b)}`"
                return f"{sides} are not provably of one shape and dtype"
        return None

    def _bound_before(self, name: str, node: cst.If) -> bool:
        inside = {id(n) for n in _descendants(node)}
        start = self.ctx.positions[node].start
        for binding in self.values.bindings(name):
            target = binding.node
            if target is None or id(target) in inside or target not in self.ctx.positions:
                continue
            position = self.ctx.positions[target].start
            if (position.line, position.column) < (start.line, start.column):
                return True
        return False

    # -- building -----------------------------------------------------------------------------------

    def _where(
        self, test: cst.BaseExpression, a: cst.BaseExpression, b: cst.BaseExpression
    ) -> tuple[cst.Call, tuple[str, str | None] | None]:
        where, needed = self.ctx.bindings.reference("mindspore.ops.where")
        args = [cst.Arg(test, comma=_comma()), cst.Arg(a, comma=_comma()), cst.Arg(b)]
        return cst.Call(func=where, args=args), needed

    def _assignment(self, plan: _Plan, node: cst.If, comments: list[cst.EmptyLine]) -> cst.SimpleStatementLine:
        if plan.update is not None:
            parameter, a, b = plan.update
            where, needed = self._where(node.test, a, b)
            assign, assign_needed = self.ctx.bindings.reference("mindspore.ops.assign")
            plan.imports += (needed, assign_needed)
            call = cst.Call(func=assign, args=[cst.Arg(parameter, comma=_comma()), cst.Arg(where)])
            small: cst.BaseSmallStatement = cst.Expr(call)
        else:
            wheres = []
            for a, b in plan.pairs:
                where, needed = self._where(node.test, a, b)
                wheres.append(where)
                plan.imports += (needed,)
            if len(wheres) == 1:
                target: cst.BaseExpression = cst.Name(plan.names[0])
                value: cst.BaseExpression = wheres[0]
            else:
                target = _bare_tuple([cst.Name(n) for n in plan.names])
                value = _bare_tuple(wheres)
            small = cst.Assign(targets=[cst.AssignTarget(target)], value=value)
        return cst.SimpleStatementLine(
            body=[small],
            leading_lines=[*node.leading_lines, *comments],
            trailing_whitespace=_header(node.body),
        )

    def _return(
        self, plan: _Plan, node: cst.If, comments: list[cst.EmptyLine], trailing: cst.TrailingWhitespace
    ) -> cst.SimpleStatementLine:
        a, b = plan.returns  # type: ignore[misc]
        where, needed = self._where(node.test, a, b)
        plan.imports += (needed,)
        return cst.SimpleStatementLine(
            body=[cst.Return(value=where)],
            leading_lines=[*node.leading_lines, *comments],
            trailing_whitespace=trailing,
        )

    def _report(
        self,
        node: cst.CSTNode,
        kind: str,
        replacement: cst.CSTNode | None = None,
        imports: tuple = (),
        anchor: cst.CSTNode | None = None,
        why: str | None = None,
    ) -> None:
        test = node.test  # type: ignore[attr-defined]
        message = (
            f"Python {kind} on the tensor value `{_short(self.ctx, test)}` in {self.ctx.where()} becomes "
            f"graph control flow (a Switch of subgraphs): a MindIR exported with a dynamic batch fails at "
            f"its second batch size"
        )
        if replacement is None:
            self.report(node, f"{message}; not rewritten: {why}")
        else:
            self.report(anchor or node, f"{message}; use `ops.where`{_DOUBLE_WHERE}", replacement, "unsafe", imports)


_IMPURE = "a side calls something that may draw random numbers or change state (a Cell, a random op)"
_PYTHON_VALUE = (
    "the condition turns a tensor into a Python value (`.item()`, `float()`, `and`/`or`): compare the "
    "tensor itself (`x.mean() > 0`) and combine with `ops.logical_and`/`ops.logical_or`"
)
_RUNNING_MASK = "keep a running mask (`done = ops.logical_or(done, c)`, then `x = ops.where(done, x, x_next)`)"
_NOT_SCALAR = (
    "the condition is not known to be a single value (compare a full reduction such as `x.mean()` or "
    "`ops.reduce_sum(m)` with a number)"
)


@dataclass
class _Plan:
    problem: str | None = None
    names: list[str] = field(default_factory=list)
    pairs: list[tuple[cst.BaseExpression, cst.BaseExpression]] = field(default_factory=list)
    returns: tuple[cst.BaseExpression, cst.BaseExpression] | None = None
    update: tuple[cst.BaseExpression, cst.BaseExpression, cst.BaseExpression] | None = None
    imports: tuple = ()


@dataclass(frozen=True)
class _Update:
    """`ops.assign_add(self.p, d)` and friends: what the Parameter becomes."""

    kind: str  # "assign", "add", "sub"
    parameter: cst.BaseExpression
    value: cst.BaseExpression

    def new_value(self) -> cst.BaseExpression:
        if self.kind == "assign":
            return self.value
        operator = cst.Add() if self.kind == "add" else cst.Subtract()
        operator = operator.with_changes(
            whitespace_before=cst.SimpleWhitespace(" "), whitespace_after=cst.SimpleWhitespace(" ")
        )
        value = self.value
        if not isinstance(value, cst.Name | cst.Attribute | cst.Call | cst.Subscript | cst.Integer | cst.Float):
            value = value.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        return cst.BinaryOperation(left=self.parameter, operator=operator, right=value)


@dataclass
class _Branch:
    """The statements of one branch, as far as a select can express them."""

    values: dict[str, cst.BaseExpression] = field(default_factory=dict)
    updates: dict[str, _Update] = field(default_factory=dict)
    returns: cst.BaseExpression | None = None
    problem: str | None = None
    comments: list[cst.EmptyLine] = field(default_factory=list)

    @classmethod
    def of(cls, rule: TensorCondition, suite: cst.BaseSuite) -> _Branch:
        branch = cls()
        if isinstance(suite, cst.SimpleStatementSuite):
            smalls: list[tuple[cst.CSTNode, cst.BaseSmallStatement]] = [(suite, s) for s in suite.body]
        else:
            smalls = []
            for statement in suite.body:  # type: ignore[attr-defined]
                if not isinstance(statement, cst.SimpleStatementLine):
                    branch.problem = f"a branch holds a nested `{_keyword(statement)}`"
                    return branch
                branch.comments += _comment_lines(statement.leading_lines)
                if statement.trailing_whitespace.comment is not None:
                    branch.comments.append(_as_line(statement.trailing_whitespace.comment))
                smalls += [(statement, s) for s in statement.body]
            branch.comments += _comment_lines(suite.footer)  # type: ignore[attr-defined]
        for _, small in smalls:
            branch.problem = branch.problem or branch.add(rule, small, len(smalls))
        return branch

    def add(self, rule: TensorCondition, small: cst.BaseSmallStatement, count: int) -> str | None:
        if isinstance(small, cst.Pass):
            return None
        if isinstance(small, cst.Raise):
            return "a `raise` has no select equivalent: check the value outside graph code, or drop the check"
        if isinstance(small, cst.Break | cst.Continue):
            return f"`break`/`continue` on a tensor value: {_RUNNING_MASK}"
        if isinstance(small, cst.Return):
            if count != 1 or small.value is None:
                return "a `return` shares its branch with other statements"
            self.returns = small.value
            return None
        if isinstance(small, cst.Assign):
            return self._add_assign(small)
        if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
            return self._add_update(rule, small.value)
        return f"a branch holds `{rule.ctx.code(small).strip()}`, which a select cannot express"

    def _add_assign(self, small: cst.Assign) -> str | None:
        if len(small.targets) != 1 or not isinstance(small.targets[0].target, cst.Name):
            return "a branch unpacks or assigns attributes: only `name = value` can be selected"
        name = small.targets[0].target.value
        if name in self.values:
            return f"a branch assigns `{name}` twice"
        if _reads(small.value) & set(self.values):
            return "a branch reads a name it assigned before: inline it first"
        self.values[name] = small.value
        return None

    def _add_update(self, rule: TensorCondition, call: cst.Call) -> str | None:
        kind = next((_UPDATES[n] for n in rule.ctx.names(call.func) if n in _UPDATES), None)
        args = call.args
        if kind is None or len(args) != 2 or any(a.keyword is not None or a.star for a in args):
            return f"a branch calls `{rule.ctx.code(call.func)}`, which a select cannot express"
        target = args[0].value
        if not (
            isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) and target.value.value == "self"
        ):
            return "a branch updates something other than a Parameter of the Cell"
        key = rule.ctx.code(target)
        if key in self.updates:
            return f"a branch updates `{key}` twice"
        self.updates[key] = _Update(kind, target, args[1].value)
        return None


def _returned(statement: cst.BaseStatement) -> cst.BaseExpression | None:
    if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1:
        small = statement.body[0]
        if isinstance(small, cst.Return):
            return small.value
    return None


def _reads(node: cst.CSTNode) -> set[str]:
    """Names an expression reads (not attribute names or keywords)."""
    reads = _Reads()
    node.visit(reads)
    return reads.found


class _Reads(cst.CSTVisitor):
    """Defined once, not in each call: the walk caches per visitor class (graphmend.tree)."""

    def __init__(self) -> None:
        super().__init__()
        self.found: set[str] = set()

    def visit_Name(self, name: cst.Name) -> None:
        self.found.add(name.value)

    def visit_Attribute(self, attribute: cst.Attribute) -> bool:
        attribute.value.visit(self)
        return False

    def visit_Arg(self, arg: cst.Arg) -> bool:
        arg.value.visit(self)
        return False


def _descendants(node: cst.CSTNode) -> list[cst.CSTNode]:
    found = [node]
    for child in node.children:
        found += _descendants(child)
    return found


def _keyword(statement: cst.BaseStatement) -> str:
    names = {cst.If: "if", cst.For: "for", cst.While: "while", cst.With: "with", cst.Try: "try"}
    return names.get(type(statement), type(statement).__name__.lower())  # type: ignore[arg-type]


def _header(suite: cst.BaseSuite) -> cst.TrailingWhitespace:
    if isinstance(suite, cst.IndentedBlock):
        return suite.header
    return suite.trailing_whitespace  # type: ignore[attr-defined]


def _else_comments(orelse: cst.Else | cst.If | None) -> list[cst.EmptyLine]:
    if not isinstance(orelse, cst.Else):
        return []
    comments = _comment_lines(orelse.leading_lines)
    header = _header(orelse.body)
    if header.comment is not None:
        comments.append(_as_line(header.comment))
    return comments


def _comment_lines(lines) -> list[cst.EmptyLine]:
    return [line for line in lines if line.comment is not None]


def _as_line(comment: cst.Comment) -> cst.EmptyLine:
    return cst.EmptyLine(comment=comment)


def _comma() -> cst.Comma:
    return cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))


def _bare_tuple(values: list[cst.BaseExpression]) -> cst.Tuple:
    return cst.Tuple(
        [cst.Element(v, comma=_comma()) for v in values[:-1]] + [cst.Element(values[-1])], lpar=[], rpar=[]
    )


def _short(ctx, node: cst.CSTNode) -> str:
    return " ".join(ctx.code(node).split())
