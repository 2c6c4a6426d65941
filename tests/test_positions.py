"""graphmend's positions are libcst's PositionProvider's, node for node, on every golden input and on the
layouts that move lines and columns (CRLF, a lone CR, tabs, continuations, no trailing newline, empty)."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from graphmend.positions import Positions
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
