"""graphmend's positions are libcst's PositionProvider's, node for node, on every golden input and on the
layouts that move lines and columns (CRLF, a lone CR, tabs, continuations, no trailing newline, empty): both
the whole module printed (`Positions`) and one top-level statement at a time (`LazyPositions`)."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from graphmend.positions import LazyPositions, Positions, statement_starts
from graphmend.tree import parent_map

ROOT = Path(__file__).resolve().parents[1]
INPUTS = sorted(p for p in (ROOT / "golden").rglob("*.py") if not p.name.endswith(".expected.py"))

LAYOUTS = {
    "crlf": b"import numpy as np\r\nclass A(nn.Cell):\r\n    def construct(self, x):\r\n        return np.ones(3)\r\n",
    "lone_cr": b"x = 1\ry = (1,\r     2)\r",
    "mixed_newlines": b"x = 1\r\ny = 2\nz = [\r\n  3,\r  4]\n",
    "tabs": b"class A:\n\tdef f(self, x):\n\t\tif x:\n\t\t\treturn (x +\n\t\t\t\t1)\n",
    "continuation": b"x = 1 + \\\n    2\nif x and \\\n   x:\n    y = '''a\nb'''  # c\n",
    "no_trailing_newline": b"def f(x):\n    return x + 1",
    "comments_only": b"# a\n\n# b\n",
    "empty": b"",
    "decorated": b"@jit\n\n# between\n@other(1,\n  2)\ndef f(x):  # c\n    pass\n    # footer\n# after\n",
    "unicode": "s = '张量'  # 注释\nt = s + 'é'\n".encode(),
}


def _assert_same(module: cst.Module) -> None:
    theirs = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    ours = Positions(module)
    nodes = [module, *parent_map(module)]
    assert len(ours) == len(theirs) == len(nodes)
    for node in nodes:
        assert node in ours
        assert ours[node] == theirs[node], type(node).__name__


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_golden_positions_are_libcsts(path: Path) -> None:
    _assert_same(cst.parse_module(path.read_bytes()))


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_layout_positions_are_libcsts(name: str) -> None:
    _assert_same(cst.parse_module(LAYOUTS[name]))


def test_a_node_of_another_tree_is_not_found() -> None:
    ours = Positions(cst.parse_module("x = 1\n"))
    stranger = cst.parse_module("x = 1\n")
    assert stranger not in ours
    with pytest.raises(KeyError):
        ours[stranger]


def _assert_lazy_same(source: bytes) -> LazyPositions:
    module = cst.parse_module(source)
    text = source.decode(module.encoding)
    theirs = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    parents = parent_map(module)
    ours = LazyPositions(module, text, lambda: parents)
    statements = {id(statement) for statement in module.body}

    def under_a_statement(node: cst.CSTNode) -> bool:
        while id(node) not in statements and node is not module:
            node = parents[node]
        return node is not module

    whole = Positions(module)
    for node in filter(under_a_statement, parents):  # first the nodes under a statement: one printed at a time
        assert node in ours
        assert ours[node] == theirs[node], type(node).__name__
    for statement in module.body:
        assert ours.code_offset(statement) == whole.code_offset(statement)
    printed_alone = ours._whole is None
    for node in [module, *parents]:  # then the rest (the module, its header and footer): the whole module
        assert ours[node] == theirs[node], type(node).__name__
    return printed_alone


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_golden_positions_one_statement_at_a_time_are_libcsts(path: Path) -> None:
    source = path.read_bytes()
    module = cst.parse_module(source)
    printed_alone = _assert_lazy_same(source)
    # the lazy way is the one taken for every golden file (all parse with CPython and end with a newline)
    assert printed_alone or not module.body
    assert statement_starts(module, source.decode()) is not None


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_layout_positions_one_statement_at_a_time_are_libcsts(name: str) -> None:
    _assert_lazy_same(LAYOUTS[name])


def test_statement_starts_are_where_each_statement_is_printed() -> None:
    for path in INPUTS:
        source = path.read_text(encoding="utf-8")
        module = cst.parse_module(source)
        starts = statement_starts(module, source)
        assert starts is not None, path
        header = sum(len(module.code_for_node(line)) for line in module.header)
        expected = [header]
        for statement in module.body:
            expected.append(expected[-1] + len(module.code_for_node(statement)))
        assert starts == expected, path
