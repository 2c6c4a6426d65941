"""graphmend's scope analysis (`graphmend.names.resolve_scopes`) is libcst's ScopeProvider, with the links
between reads and assignments worked out when asked: the same answers, on every golden case and on the
scoping corners below, and work that grows linearly with the length of one function."""

import contextlib
import cProfile
import pstats
import textwrap
import tracemalloc
from pathlib import Path

import libcst as cst
import libcst.matchers as m
import pytest
from libcst.metadata import ExpressionContextProvider, MetadataWrapper, ScopeProvider

from graphmend import engine, names, tree
from graphmend.bindings import FunctionIndex
from graphmend.rules import select_rules
from graphmend.scopes import find_graph_code

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
CASES = sorted(p for p in GOLDEN.glob("*/*.py") if not p.name.endswith(".expected.py"))

CORNERS = {
    "shadowing": """
        import numpy as np
        x = 1
        def f(a):
            y = x + a
            x2 = np.ones(y)
            y = y + x2
            y = y * 2
            return y
        """,
    "read_before_local_assignment": """
        len = 3
        def f(t):
            print(len)
            len = t
            return len(t)
        """,
    "global_nonlocal": """
        g = 0
        def outer():
            n = 1
            def inner():
                nonlocal n
                global g
                n = n + g
                g = n
            return inner
        """,
    "class_scope": """
        v = 1
        class C:
            v = v + 1
            w = [v for _ in range(3)]
            def m(self):
                return v
        """,
    "dotted_imports_and_annotations": """
        import mindspore.ops
        import mindspore.numpy as mnp
        from typing import Optional
        def f(x: "mindspore.Tensor", y: Optional["mnp.ndarray"] = None) -> "int":
            z = mindspore.ops.relu(x)
            return mindspore.ops.shape(z)[0], mnp.ones(3).sum()
        """,
    "comprehensions_lambda_walrus": """
        def f(xs):
            out = [y for x in xs if (y := x * 2)]
            g = lambda q, r=out: q + r[0]
            del out
            for i, (a, b) in enumerate(xs):
                xs = a
            return g, i, b
        """,
}


class _Nodes(cst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[int] = set()

    def on_visit(self, node: cst.CSTNode) -> bool:
        self.ids.add(id(node))
        return True


def _canonical(module: cst.Module, scopes) -> dict:
    """Every fact of the analysis, with scopes and nodes named by what they are, not by object identity
    (nodes parsed from a string annotation, made anew by each analysis, by their type and code)."""
    tree = _Nodes()
    module.visit(tree)

    def key(node):
        if node is None or id(node) in tree.ids:
            return id(node)
        return type(node).__name__, cst.Module([]).code_for_node(node)

    def scope_key(scope):
        return (type(scope).__name__, key(getattr(scope, "node", None)))

    def assignment_key(a):
        return (a.name, scope_key(a.scope), key(getattr(a, "node", None)), a._index, type(a).__name__)

    facts: dict = {"nodes": {}, "assignments": set(), "references": set(), "accesses": set(), "qualified": set()}
    seen = set()
    for node, scope in scopes.items():
        facts["nodes"][key(node)] = scope_key(scope) if scope else None
        if scope is None or id(scope) in seen:
            continue
        seen.add(id(scope))
        for a in scope.assignments:
            facts["assignments"].add(assignment_key(a))
            facts["references"].update((assignment_key(a), key(r.node), r._index) for r in a.references)
        for access in scope.accesses:
            facts["accesses"].update((key(access.node), assignment_key(r)) for r in access.referents)
    for node, scope in scopes.items():
        if scope is not None and isinstance(node, cst.Name | cst.Attribute):
            facts["qualified"].update((key(node), q.name, q.source.name) for q in scope.get_qualified_names_for(node))
    return facts


@contextlib.contextmanager
def _libcst_alone():
    """libcst's own traversal, not the one graphmend installs (tree.py): the reference is libcst's."""
    installed = cst.CSTNode.visit
    cst.CSTNode.visit = tree._libcst_visit
    try:
        yield
    finally:
        cst.CSTNode.visit = installed


def _both(source: str | bytes):
    module = cst.parse_module(source)
    ours = names.resolve_scopes(MetadataWrapper(module, unsafe_skip_copy=True))
    with _libcst_alone():
        theirs = MetadataWrapper(module, unsafe_skip_copy=True).resolve(ScopeProvider)
    return _canonical(module, ours), _canonical(module, theirs)


@pytest.mark.parametrize("case", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_same_scopes_as_libcst_on_golden_cases(case: Path) -> None:
    ours, theirs = _both(case.read_bytes())
    assert ours == theirs


@pytest.mark.parametrize("name", sorted(CORNERS))
def test_same_scopes_as_libcst_on_scoping_corners(name: str) -> None:
    ours, theirs = _both(textwrap.dedent(CORNERS[name]))
    assert ours["references"] and ours["accesses"]
    assert ours == theirs


def _construct(n: int, statement: str) -> str:
    """A Cell whose `construct` is `statement` n times (`{i}`: the statement's number, from 1)."""
    lines = ["import mindspore.nn as nn", "class Big(nn.Cell):", "    def construct(self, x):", "        y0 = x"]
    lines += ["        " + statement.format(i=i, previous=i - 1) for i in range(1, n + 1)]
    return "\n".join([*lines, "        return x", ""])


def _calls(function, *args) -> int:
    """Calls of Python functions (a generator's resumptions included, builtins not) `function` makes."""
    profile = cProfile.Profile()
    profile.runcall(function, *args)
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    return sum(calls for (filename, _, _), (_, calls, *_) in stats.items() if filename != "~")


def _peak(function, *args) -> int:
    tracemalloc.start()
    try:
        function(*args)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _check(rules):
    return lambda source: engine.check(source, "big.py", rules)


# Each test below runs n and 2n statements and asks for twice the work (and memory), not four times:
# the growth each guards against is named; the statement counts are those where it would show.


def test_issue_18_construct_grows_linearly() -> None:
    """`y = y + x * 1.0` n times, every default rule: libcst linked each read of y to every assignment
    before it (and back), n² links kept."""
    small, large = (_construct(n, "y0 = y0 + x * 1.0") for n in (150, 300))
    check = _check(select_rules(None))
    work = _calls(check, small), _calls(check, large)
    assert work[1] <= 2.2 * work[0], work
    peak = _peak(check, small), _peak(check, large)
    assert peak[1] <= 2.2 * peak[0], peak


def test_value_model_asked_about_one_name_in_every_statement_grows_linearly() -> None:
    """`len(x)` in every statement: each question walked every call x is passed to."""
    small, large = (_construct(n, "y{i} = y{previous} + x.view(-1) * len(x)") for n in (150, 300))
    check = _check(select_rules(["GM301"]))
    work = _calls(check, small), _calls(check, large)
    assert work[1] <= 2.2 * work[0], work


def test_function_index_of_many_names_grows_linearly() -> None:
    """A name per statement: each binding counted the bindings of every name before it."""

    def index(n: int):
        module = cst.parse_module(_construct(n, "y{i} = y{previous} + x"))
        return next(iter(m.findall(module, m.FunctionDef())))

    small, large = index(500), index(1000)
    work = _calls(FunctionIndex.of, small), _calls(FunctionIndex.of, large)
    assert work[1] <= 2.2 * work[0], work


def test_a_method_called_through_the_class_is_graph_code() -> None:
    source = (
        "from mindspore import nn\n\n\n"
        "class Base(nn.Cell):\n"
        "    def half(self, x):\n        return x / 2\n\n"
        "class Net(Base):\n"
        "    def a(self, x):\n        return x\n\n"
        "    def b(self, x):\n        return x\n\n"
        "    def c(self, x):\n        return x\n\n"
        "    def built(self, n):\n        return n\n\n"
        "    def __init__(self):\n        super().__init__()\n        self.n = Net.built(self, 3)\n\n"
        "    def construct(self, x):\n"
        "        return type(self).a(self, x) + self.__class__.b(self, x) + Base.half(self, x) + Other.c(x)\n"
    )
    wrapper = MetadataWrapper(cst.parse_module(source), unsafe_skip_copy=True)
    graph = find_graph_code(wrapper.module, names.QualifiedNames(names.resolve_scopes(wrapper)))
    assert sorted(f.label for f in graph.functions) == ["Base.half", "Net.a", "Net.b", "Net.construct"]


CONTEXT_CORNERS = {
    **CORNERS,
    "targets": """
        a, (b, *c) = [d, e] = x[i:j, k].y = f(g=1)
        x.y[z] += 1
        del a, b.c, d[0]
        with open(p) as (q, r), s as t.u:
            pass
        for v.w, [m, *n] in pairs:
            pass
        print((o := 3), [h for h, *_ in z if h for z in zz])
        """,
    "definitions": """
        @deco(arg=1)
        class K(Base, metaclass=Meta):
            attr: int = 0
            def m(self, a: "T" = d, *args, k=lambda p=1: p, **kw) -> R:
                global G
                import os.path as osp, sys
                from . import mod as alias
                try:
                    pass
                except E as err:
                    raise
                match a:
                    case [P(x=1), *rest] as whole:
                        pass
        """,
}


@pytest.mark.parametrize("source", [*CASES, *sorted(CONTEXT_CORNERS)], ids=str)
def test_expression_contexts_are_libcsts(source) -> None:
    """The ExpressionContextProvider graphmend computes itself gives libcst's contexts to the same nodes."""
    text = source.read_bytes() if isinstance(source, Path) else textwrap.dedent(CONTEXT_CORNERS[source])
    module = cst.parse_module(text)
    with _libcst_alone():
        theirs = dict(MetadataWrapper(module, unsafe_skip_copy=True).resolve(ExpressionContextProvider))
    assert names.expression_contexts(module) == theirs
    assert len(theirs) > 3
