"""The fast tree reads agree with libcst's providers on every golden input; what a Cell stores on `self`."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, ParentNodeProvider, QualifiedNameProvider, ScopeProvider

from graphmend import tree
from graphmend.names import QualifiedNames, resolve_scopes
from graphmend.scopes import UNKNOWN, self_assignments
from graphmend.tree import parent_map

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
INPUTS = sorted(p for p in GOLDEN.rglob("*.py") if not p.name.endswith(".expected.py"))


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_parent_map_is_libcsts_parent_provider(path: Path) -> None:
    wrapper = MetadataWrapper(cst.parse_module(path.read_bytes()), unsafe_skip_copy=True)
    assert parent_map(wrapper.module) == dict(wrapper.resolve(ParentNodeProvider))


class _Events(cst.CSTVisitor):
    """Every call libcst's traversal makes on a read-only visitor, in order; it skips what `visit_If`
    refuses, as a visitor may."""

    def __init__(self) -> None:
        super().__init__()
        self.events: list[tuple[str, str, int]] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        self.events.append(("visit", type(node).__name__, id(node)))
        return not isinstance(node, cst.If)

    def on_leave(self, original_node: cst.CSTNode) -> None:
        self.events.append(("leave", type(original_node).__name__, id(original_node)))

    def on_visit_attribute(self, node: cst.CSTNode, attribute: str) -> None:
        self.events.append(("enter field", attribute, id(node)))

    def on_leave_attribute(self, original_node: cst.CSTNode, attribute: str) -> None:
        self.events.append(("leave field", attribute, id(original_node)))


class _Batched(cst.BatchableCSTVisitor):
    def __init__(self, name: str, events: list) -> None:
        super().__init__()
        self.name, self.events = name, events

    def visit_Call(self, node: cst.Call) -> None:
        self.events.append((self.name, "visit Call", id(node)))

    def visit_Name(self, node: cst.Name) -> None:
        self.events.append((self.name, "visit Name", id(node)))

    def leave_Call(self, original_node: cst.Call) -> None:
        self.events.append((self.name, "leave Call", id(original_node)))

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self.events.append((self.name, "visit FunctionDef", id(node)))
        return False  # ignored in a batched visit, by libcst and by graphmend


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_read_only_visit_is_libcsts_traversal(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    module = cst.parse_module(path.read_bytes())
    fast, fast_batched = _Events(), []
    module.visit(fast)  # graphmend's (installed by graphmend.tree)
    tree.visit_batched(module, [_Batched("a", fast_batched), _Batched("b", fast_batched)])
    monkeypatch.setattr(cst.CSTNode, "visit", tree._libcst_visit)
    slow, slow_batched = _Events(), []
    module.visit(slow)
    cst.visit_batched(module, [_Batched("a", slow_batched), _Batched("b", slow_batched)])
    assert fast.events == slow.events and len(slow.events) > 10
    assert fast_batched == slow_batched


def test_a_transformer_still_goes_through_libcst() -> None:
    class Rename(cst.CSTTransformer):
        def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.Name:
            return updated_node.with_changes(value=updated_node.value.upper())

    assert cst.parse_module("f(x)\n").visit(Rename()).code == "F(X)\n"


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_scopes_and_qualified_names_are_libcsts_providers(path: Path) -> None:
    wrapper = MetadataWrapper(cst.parse_module(path.read_bytes()), unsafe_skip_copy=True)
    expected = wrapper.resolve(QualifiedNameProvider)
    mine = QualifiedNames(resolve_scopes(wrapper))
    assert resolve_scopes(wrapper).keys() == wrapper.resolve(ScopeProvider).keys()
    nodes = [n for n in expected if isinstance(n, (cst.Name, cst.Attribute, cst.Call, cst.Subscript))]
    assert nodes
    for node in nodes:
        value = expected[node]
        assert (mine.get(node) or set()) == (value() if callable(value) else value), wrapper.module.code_for_node(node)


def test_self_assignments_by_attribute_with_the_method_they_are_in() -> None:
    module = cst.parse_module(
        "class Net(nn.Cell):\n"
        "    def __init__(self, n):\n"
        "        self.a = ops.zeros(n)\n"
        "        self.b: int = 3\n"
        "        self.c, self.d = 1, n\n"
        "        self.e, self.f = make()\n"
        "        if n:\n"
        "            self.a = None\n"
        "        class Inner:\n"
        "            def __init__(self):\n"
        "                self.a = 'not the Cell'\n"
        "    def construct(self, x):\n"
        "        self.b += 1\n"
        "        return x\n"
    )
    found = self_assignments(module.body[0])  # type: ignore[arg-type]
    code = {
        name: [(a.method, a.value if a.value is UNKNOWN else module.code_for_node(a.value).strip()) for a in values]
        for name, values in found.items()
    }
    assert code == {
        "a": [("__init__", "ops.zeros(n)"), ("__init__", "None")],
        "b": [("__init__", "3"), ("construct", "self.b += 1")],
        "c": [("__init__", "1")],
        "d": [("__init__", "n")],
        "e": [("__init__", UNKNOWN)],
        "f": [("__init__", UNKNOWN)],
    }


@pytest.mark.parametrize(
    "source",
    [
        "a = f'{x}'\nb = f'{v:.{d}f}'\nc = f'{w!r:>{n}}'\n",  # the first f-string has no format spec
        "b = f'{v:.{d}f}'\na = f'{x}'\nc = f'{w!r:>{n}}'\n",  # the first one has
    ],
    ids=["spec_later", "spec_first"],
)
def test_a_field_libcst_skips_when_none_is_visited_when_it_holds_nodes(
    source: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """FormattedStringExpression visits `format_spec` only when it is not None: the order learnt from
    `f'{x}'` must not hide `{d}` in `f'{v:.{d}f}'` (nor the other way round), whichever comes first."""
    monkeypatch.setattr(tree, "_ORDER", {})
    monkeypatch.setattr(tree, "_CONDITIONAL", set())
    module = cst.parse_module(source)
    fast = _Events()
    module.visit(fast)
    monkeypatch.setattr(cst.CSTNode, "visit", tree._libcst_visit)
    slow = _Events()
    module.visit(slow)
    assert fast.events == slow.events
    assert tree.names_in(module) >= {"x", "v", "d", "w", "n"}


class _Typed(cst.CSTVisitor):
    """A visitor of the usual kind: visit_<Type>/leave_<Type> methods, libcst's on_visit and on_leave."""

    def __init__(self) -> None:
        super().__init__()
        self.events: list[tuple[str, int]] = []

    def visit_Call(self, node: cst.Call) -> None:
        self.events.append(("visit Call", id(node)))

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        self.events.append(("visit Lambda", id(node)))
        return False  # its parameters and body are not visited

    def visit_Name(self, node: cst.Name) -> bool:
        self.events.append(("visit Name", id(node)))
        return True

    def leave_Name(self, original_node: cst.Name) -> None:
        self.events.append(("leave Name", id(original_node)))

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.events.append(("leave FunctionDef", id(original_node)))

    def visit_ClassDef_bases(self, node: cst.ClassDef) -> None:
        self.events.append(("enter bases", id(node)))


# every 7th golden input that defines a function (the test checks the walk leaves one): which ones, as golden
# cases come and go, changes nothing
WITH_FUNCTIONS = [p for p in INPUTS if b"def " in p.read_bytes()]


@pytest.mark.parametrize("path", WITH_FUNCTIONS[::7], ids=lambda p: f"{p.parent.name}/{p.name}")
def test_typed_visitor_methods_are_called_as_libcst_calls_them(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    module = cst.parse_module(path.read_bytes())
    own = _Typed()
    own.visit_Attribute = lambda node: own.events.append(("instance's visit Attribute", id(node)))  # type: ignore
    fast, fast_own = _Typed(), own
    module.visit(fast)
    module.visit(fast_own)
    monkeypatch.setattr(cst.CSTNode, "visit", tree._libcst_visit)
    slow, slow_own = _Typed(), _Typed()
    slow_own.visit_Attribute = lambda node: slow_own.events.append(("instance's visit Attribute", id(node)))  # type: ignore
    module.visit(slow)
    module.visit(slow_own)
    assert fast.events == slow.events and any(e[0] == "leave FunctionDef" for e in slow.events)
    assert fast_own.events == slow_own.events


class _Statements(cst.BatchableCSTVisitor):
    """Asks for statement-level nodes only: the batched walk may skip every simple statement's inside."""

    def __init__(self, events: list) -> None:
        super().__init__()
        self.events = events

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.events.append(("visit ClassDef", id(node)))

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.events.append(("visit FunctionDef", id(node)))

    def leave_Lambda(self, original_node: cst.Lambda) -> None:
        self.events.append(("leave Lambda", id(original_node)))


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_batched_walk_skips_only_what_cannot_hold_what_is_asked(path: Path) -> None:
    """libcst's field types say which node classes can be under which: every node of the golden inputs is
    one its parent's fields admit, and the pruned batched walk sees what libcst's full one sees."""
    module = cst.parse_module(path.read_bytes())
    for child, parent in parent_map(module).items():
        assert type(child) in tree.child_types(type(parent)), (type(parent).__name__, type(child).__name__)
    fast: list = []
    tree.visit_batched(module, [_Statements(fast)])
    slow: list = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(cst.CSTNode, "visit", tree._libcst_visit)
        cst.visit_batched(module, [_Statements(slow)])
    assert fast == slow


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_statements_are_every_statement_in_libcsts_order(path: Path) -> None:
    """`statements` skips expressions: it must still list what a full walk finds, in the same order; without
    `into_classes` a class's own statements are what is left when its nested classes' are taken away."""
    module = cst.parse_module(path.read_bytes())
    kinds = (cst.BaseStatement, cst.BaseSmallStatement)
    assert tree.statements(module) == tree.find(module, *kinds)
    for cls in tree.find(module, cst.ClassDef):
        nested = {id(n) for inner in tree.find(cls.body, cst.ClassDef) for n in tree.find(inner.body, *kinds)}
        assert tree.statements(cls, into_classes=False) == [n for n in tree.find(cls, *kinds) if id(n) not in nested]


def test_checking_files_again_keeps_no_more_of_them_alive():
    """A worker checks thousands of files: nothing of a checked file may stay reachable. `find` and
    `names_in` once made a visitor class per call, which the walk's per-class caches kept, with every node
    it had found (a worker's memory doubled over the corpus). Counted, not timed: the same files checked a
    second time leave exactly as many libcst nodes and visitor classes alive as the first time."""
    import gc

    from graphmend import engine
    from graphmend.rules import select_rules

    rules = select_rules(None)
    sources = [(case, case.read_bytes()) for case in sorted(GOLDEN.glob("*/*.py"))
               if not case.name.endswith(".expected.py")]  # fmt: skip

    def check_all() -> tuple[int, int]:
        for case, source in sources:
            engine.check(source, case.name, rules)
        gc.collect()
        nodes = sum(1 for o in gc.get_objects() if isinstance(o, cst.CSTNode))
        return nodes, len(cst.CSTVisitor.__subclasses__())

    first = check_all()
    assert check_all() == first
