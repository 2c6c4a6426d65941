"""The first pass: which files cannot have a finding, decided on CPython's syntax tree, before libcst.

Every file is compiled by CPython first (to report what does not parse, `files.syntax_error`); that tree is
kept and walked here, statement by statement (no expression is entered but decorators), for what each
selected rule needs (`Rule.may_find`):

- a rule of graph code (the default) needs a graph function, which needs a class that defines `construct`
  or `bprop`, or a function with a `jit` decorator (any spelling: `@jit`, `@ms.jit(...)`, an alias
  imported as `jit as compiled`) (graphmend.scopes: helpers become graph code only when graph code calls
  them). A superset of what `scopes.find_graph_code` finds, by construction: any class, not only Cells;
  methods nested under an `if`; any decorator named `jit`;
- a rule of Cell classes or of the module says what it needs itself (GM203: a list assigned to `self.x`;
  GM205, GM613, GM614: a word its pattern cannot be written without);
- a `graphmend:` comment may be an unused suppression (GM000): such files always go on.

A file no selected rule may find anything in is not parsed by libcst at all: it has no finding, and `fix`
leaves it as it is. bench/corpus_check.py checks every file this pass skips on the six-package corpus
with the full analysis (none may have a finding), and tests/test_firstpass.py does the same on every golden
case.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Sequence
from functools import cached_property
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from graphmend.rule import Rule

_GRAPH_METHODS = frozenset({"construct", "bprop"})
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


class Facts:
    """What the first pass knows of one file: its bytes and CPython's tree of it."""

    def __init__(self, tree: ast.Module, data: bytes) -> None:
        self.tree = tree
        self.data = data

    @cached_property
    def statements(self) -> list[ast.stmt]:
        return list(_statements(self.tree.body))

    @cached_property
    def graph(self) -> bool:
        """A class defines `construct`/`bprop`, or a function has a `jit` decorator."""
        jit = {"jit"} | {
            alias.asname
            for s in self.statements
            if isinstance(s, ast.Import | ast.ImportFrom)
            for alias in s.names
            if alias.asname and alias.name.rpartition(".")[2] == "jit"
        }
        for statement in self.statements:
            if isinstance(statement, ast.ClassDef):
                if any(isinstance(s, _FUNCTIONS) and s.name in _GRAPH_METHODS for s in _statements(statement.body)):
                    return True
            elif isinstance(statement, _FUNCTIONS) and any(_names(d) & jit for d in statement.decorator_list):
                return True
        return False

    @cached_property
    def self_lists(self) -> bool:
        """Some `self.x = [...]` or `self.x = [... for ...]` (GM203's pattern)."""
        return any(
            isinstance(s, ast.Assign)
            and len(s.targets) == 1
            and isinstance(s.targets[0], ast.Attribute)
            and isinstance(s.targets[0].value, ast.Name)
            and s.targets[0].value.id == "self"
            and isinstance(s.value, ast.List | ast.ListComp)
            for s in self.statements
        )


def may_have_findings(tree: ast.Module, data: bytes, rules: Sequence[type[Rule]]) -> bool:
    """False only when none of `rules` can find anything in the file (and no suppression comment is in it)."""
    if b"graphmend:" in data:
        return True
    facts = Facts(tree, data)
    return any(rule.may_find(facts) for rule in rules)


def _statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Every statement of `body`, nested ones included (in classes, functions, branches, loops, handlers)."""
    todo = list(reversed(body))
    while todo:
        statement = todo.pop()
        yield statement
        nested: list[ast.stmt] = []
        for field in ("body", "orelse", "finalbody"):
            nested += getattr(statement, field, ())
        for handler in getattr(statement, "handlers", ()):
            nested += handler.body
        for case in getattr(statement, "cases", ()):
            nested += case.body
        todo.extend(reversed(nested))


def _names(decorator: ast.expr) -> set[str]:
    """The names a decorator is spelled with: `ms.jit(...)` → {"ms", "jit"}."""
    if isinstance(decorator, ast.Call):
        decorator = decorator.func
    names = set()
    while isinstance(decorator, ast.Attribute):
        names.add(decorator.attr)
        decorator = decorator.value
    if isinstance(decorator, ast.Name):
        names.add(decorator.id)
    return names
