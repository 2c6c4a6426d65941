"""The language server's reparse (graphmend.incremental) gives the tree libcst gives for the whole text, node
for node, the positions and parents of the whole tree from what it keeps per statement, and so the same
findings: after edits of every kind (a comment, a blank line, a comment at odd
indentation, a deleted, duplicated or dedented line, a new statement or function, a changed character) all
over the golden inputs, on layouts whose defaults libcst works out from the whole file, and on a file of many
top-level classes, where most statements are reused."""

from __future__ import annotations

import textwrap
import warnings
from collections.abc import Callable
from pathlib import Path

import libcst as cst
import pytest

from graphmend import engine
from graphmend.incremental import Reparser
from graphmend.positions import Positions
from graphmend.rules import select_rules
from graphmend.tree import parent_map

ROOT = Path(__file__).resolve().parents[1]
INPUTS = sorted(p for p in (ROOT / "golden").rglob("*.py") if not p.name.endswith(".expected.py"))

CELL = textwrap.dedent(
    '''\

    class Block{n}(nn.Cell):
        """A generated block."""

        def __init__(self, dim):
            super().__init__()
            self.dense = nn.Dense(dim, dim)
            # a comment in the block

        def construct(self, x):
            if x.sum() > 0:
                x = x * 2
            return self.dense(x) + Tensor(np.ones((1, 3)))
        # the block's footer


    # between blocks
    helper{n} = ops.ones
    '''
)
MANY = "import numpy as np\nfrom mindspore import nn, ops, Tensor\n" + "".join(CELL.format(n=n) for n in range(12))

EDITS: dict[str, Callable[[list[str], int], None]] = {
    "comment": lambda lines, i: lines.__setitem__(i, lines[i] + "  # edited"),
    "blank": lambda lines, i: lines.insert(i, ""),
    "comment_at_0": lambda lines, i: lines.insert(i, "# new"),
    "comment_indented": lambda lines, i: lines.insert(i, _indent(lines[i]) + "    # new"),
    "comment_odd": lambda lines, i: lines.insert(i, "  # odd"),
    "delete": lambda lines, i: lines.__delitem__(i),
    "duplicate": lambda lines, i: lines.insert(i, lines[i]),
    "dedent": lambda lines, i: lines.__setitem__(i, lines[i].lstrip()),
    "statement": lambda lines, i: lines.insert(i, _indent(lines[i]) + "y = np.zeros(3)"),
    "function": lambda lines, i: lines.insert(i, "def f(x):\n    return x\n"),
    "character": lambda lines, i: lines.__setitem__(i, lines[i][:3] + "z" + lines[i][3:]),
    "at_the_end": lambda lines, i: lines.insert(len(lines) - 1 - i % 3, ["# tail", "z = 1", ""][i % 3]),
}


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


def _edits(text: str, places: int):
    """Texts after successive edits of every kind at `places` lines spread over the file."""
    lines = text.split("\n")
    for step, (name, edit) in enumerate(EDITS.items()):
        for k in range(places):
            i = (len(lines) * (2 * k + 1) // (2 * places) + step) % max(len(lines), 1)
            edit(lines, i)
            yield f"{name}@{i}", "\n".join(lines)


def _parses(text: str) -> bool:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # `x is 1` in an input: a SyntaxWarning, not an error
        try:
            compile(text, "<edit>", "exec", dont_inherit=True)
            cst.parse_module(text)
        except (SyntaxError, ValueError, cst.ParserSyntaxError):
            return False
    return True


def _assert_same_trees(source: str, places: int, newline: str = "\n") -> int:
    """Each parsable edit of `source`, one after the other: the reparse equals the whole parse. Returns how
    many reused statements of the version before."""
    reparser = Reparser()
    reparser.parse(source.replace("\n", newline).encode())
    spliced = 0
    for where, text in _edits(source, places):
        if not _parses(text):
            continue
        data = text.replace("\n", newline).encode()
        whole = cst.parse_module(data)
        again = reparser.parse(data)
        assert again.deep_equals(whole), where
        assert again.bytes == whole.bytes == data, where
        assert (again.encoding, again.default_indent, again.default_newline, again.has_trailing_newline) == (
            whole.encoding, whole.default_indent, whole.default_newline, whole.has_trailing_newline
        ), where  # fmt: skip
        spliced += reparser.reused > 0
        _assert_same_positions_and_parents(reparser, again)
    return spliced


def _assert_same_positions_and_parents(reparser: Reparser, module: cst.Module) -> None:
    """What the reparser keeps per statement gives the positions and parents of the whole module's."""
    parents = parent_map(module)
    assert reparser.parents(module) == parents
    whole, kept = Positions(module), reparser.positions(module)
    assert len(kept) == len(whole) == len(parents) + 1
    for node in [module, *parents]:
        assert node in kept and kept[node] == whole[node], type(node).__name__
        assert kept.code_offset(node) == whole.code_offset(node), type(node).__name__


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_reparse_is_the_whole_parse_on_golden_inputs(path: Path) -> None:
    _assert_same_trees(path.read_text(encoding="utf-8"), places=1)


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_most_statements_of_a_large_file_are_reused_and_the_tree_is_the_same(newline: str) -> None:
    assert _assert_same_trees(MANY, places=5, newline=newline) > 20
    reparser = Reparser()
    reparser.parse(MANY)
    lines = MANY.split("\n")
    lines[len(lines) // 2] += "  # edited"
    reparser.parse("\n".join(lines))
    assert reparser.reused >= len(cst.parse_module(MANY).body) - 3  # the edited statement and its neighbours


def test_the_findings_are_the_whole_parse_findings() -> None:
    rules = select_rules()
    reparser = Reparser()
    assert engine.check(MANY.encode(), "many.py", rules, reparser) == engine.check(MANY, "many.py", rules)
    spliced = 0
    for where, text in _edits(MANY, places=3):
        if _parses(text):
            data = text.encode()
            assert engine.check(data, "many.py", rules, reparser) == engine.check(data, "many.py", rules), where
            spliced += reparser.reused > 0
    assert spliced > 10


@pytest.mark.parametrize(
    "first",
    [
        "# -*- coding: latin-1 -*-\nx = 'caf\xe9'\n",  # the encoding is the first lines'
        "x = 1\r\n",  # the default newline is the first one
        "if x:\n\tpass\n",  # the default indent is the first indented block's
        "",  # no indented block before the edited one: the edited one's must not change it
    ],
)
def test_what_libcst_works_out_from_the_whole_file_is_kept(first: str) -> None:
    body = "".join(f"def f{n}(x):\n  return x\n\n" for n in range(6))
    encoding = "latin-1" if "coding" in first else "utf-8"
    source = (first + body).encode(encoding)
    reparser = Reparser()
    reparser.parse(source)
    for edited in (
        body.replace("def f3(x):\n  return x", "def f3(x):\n        return x"),  # another indent
        body.replace("def f3(x):\n  return x", "def f3(x):\n  return x  # é"),
        body.replace("def f2(x):", "def f2(x):  # c\r"),
    ):
        data = (first + edited).encode(encoding)
        if _parses(data.decode(encoding)):
            assert reparser.parse(data).deep_equals(cst.parse_module(data))


_FILLER = b"# one\n# two\n\n\ndef _filler(a):\n    return a\n\n\n"


class _WholeEveryTime(Reparser):
    """A Reparser that parses, prints and walks the whole module every time: `fix` as it was before it kept
    anything between its passes."""

    def _splice(self, last, text):  # noqa: ANN001, ANN202
        return None

    def positions(self, module: cst.Module, parents=None, candidates=None) -> Positions:  # noqa: ANN001
        return Positions(module)

    def parents(self, module: cst.Module) -> dict[cst.CSTNode, cst.CSTNode]:
        return parent_map(module)


def test_fix_between_passes_is_fix_with_whole_parses(monkeypatch: pytest.MonkeyPatch) -> None:
    """`fix` keeps the unchanged top-level statements between its passes (the fixed code spliced from the
    statements that changed, the reparse and positions reusing the rest): on every golden case, safe and
    unsafe, the output, the applied and the remaining findings (edits included) are those of whole
    parses, and the reuse really happens on some of them."""
    from test_golden import _rules

    reused = []
    original_parse = Reparser.parse

    def counting(self, source):  # noqa: ANN001, ANN202
        module = original_parse(self, source)
        reused.append(self.reused)
        return module

    # each golden input as it is, and after a function with an indented block (a splice needs the file's
    # indentation settled before the statements it parses again: golden files are a Cell after the imports)
    sources = [(path, path.read_bytes()) for path in INPUTS]
    sources += [(path, _FILLER + data) for path, data in sources if b"__future__" not in data]
    fast = []
    monkeypatch.setattr(Reparser, "parse", counting)
    for path, data in sources:
        for unsafe in (False, True):
            fast.append(engine.fix(data, path.name, _rules(path), unsafe))
    monkeypatch.setattr(engine, "Reparser", _WholeEveryTime)
    monkeypatch.setattr(engine, "_code_after", lambda old, changed, text, offset=None: changed.code)
    slow = [engine.fix(data, path.name, _rules(path), unsafe) for path, data in sources for unsafe in (0, 1)]
    assert fast == slow
    assert sum(n > 0 for n in reused) >= 10, "no pass reused a statement: the fast path never ran"
