"""graphmend's faster stand-ins for libcst metadata give what libcst's providers give, on every golden input."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, ParentNodeProvider, QualifiedNameProvider, ScopeProvider

from codemods.names import QualifiedNames
from codemods.scopes import parent_map

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
INPUTS = sorted(p for p in GOLDEN.rglob("*.py") if not p.name.endswith(".expected.py"))


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_parent_map_is_libcsts_parent_provider(path: Path) -> None:
    wrapper = MetadataWrapper(cst.parse_module(path.read_bytes()), unsafe_skip_copy=True)
    assert parent_map(wrapper.module) == dict(wrapper.resolve(ParentNodeProvider))


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_qualified_names_are_libcsts_provider(path: Path) -> None:
    wrapper = MetadataWrapper(cst.parse_module(path.read_bytes()), unsafe_skip_copy=True)
    expected = wrapper.resolve(QualifiedNameProvider)
    mine = QualifiedNames(wrapper.resolve(ScopeProvider))
    nodes = [n for n in expected if isinstance(n, (cst.Name, cst.Attribute, cst.Call, cst.Subscript))]
    assert nodes
    for node in nodes:
        value = expected[node]
        assert (mine.get(node) or set()) == (value() if callable(value) else value), wrapper.module.code_for_node(node)
