"""The engine reads a module's code from its source instead of generating it: the same text libcst
prints, on every golden input and on the layouts where the two could differ (BOM, CR, CRLF, an encoding)."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

from graphmend import engine
from graphmend.rules import select_rules

ROOT = Path(__file__).resolve().parents[1]
INPUTS = sorted(p for p in (ROOT / "golden").rglob("*.py") if not p.name.endswith(".expected.py"))
LAYOUTS = {
    "bom_bytes": b"\xef\xbb\xbfimport numpy as np\nx = np.ones(3)\n",
    "bom_str": "\ufeffimport numpy as np\nx = np.ones(3)\n",
    "crlf": b"x = 1\r\ny = 2\r\n",
    "lone_cr": b"x = 1\ry = 2\r",  # libcst drops the final \r: its code, not the source, is the text
    "gbk": "# -*- coding: gbk -*-\ns = '张量'\n".encode("gbk"),
    "no_final_newline": b"x = 1",
}


@pytest.mark.parametrize("source", [*INPUTS, *sorted(LAYOUTS)], ids=str)
def test_the_text_is_libcsts_code(source) -> None:
    data = source.read_bytes() if isinstance(source, Path) else LAYOUTS[source]
    module = cst.parse_module(data)
    assert engine._text(data, module) == module.code


CELL = "from mindspore import nn\n\n\nclass N(nn.Cell):\n    def construct(self, x):\n        return x + np.ones(3)\n"


@pytest.mark.parametrize(
    ("head", "encoding"),
    [("\ufeffimport numpy as np\n", "utf-8"), ("# -*- coding: gbk -*-\nimport numpy as np  # 张量\n", "gbk")],
    ids=["bom", "gbk"],
)
def test_a_fix_keeps_the_bom_and_the_encoding(head: str, encoding: str) -> None:
    """After a fix pass the text is the reparsed module's: the BOM and the GBK comment survive in the bytes."""
    source = (head + CELL).encode(encoding)
    result = engine.fix(source, "n.py", select_rules(["GM101"]))
    assert result.applied and b"np.ones" not in result.output
    assert result.output.startswith(source[:3])
    assert result.output.decode(encoding).count(head.splitlines()[-1].lstrip("\ufeff")) == 1


IMPORTS = [
    frozenset({("mindspore", "ops")}),
    frozenset({("mindspore", None), ("mindspore.mint", None)}),
    frozenset({("mindspore", "Tensor"), ("numpy", None)}),
]


@pytest.mark.parametrize("source", [*INPUTS, *sorted(LAYOUTS)], ids=str)
def test_import_edits_print_only_what_changes_and_give_libcsts_module(source) -> None:
    """import_edits prints only the top-level statements an import changes and splices them into the text
    (`_code_after`), and diffs only the lines between the common first and last ones: applied, its edits
    still give the whole module libcst prints with the imports added."""
    from graphmend.imports import add_imports

    data = source.read_bytes() if isinstance(source, Path) else LAYOUTS[source]
    module = cst.parse_module(data)
    text = engine._text(data, module)
    for imports in IMPORTS:
        for new, join in ((True, False), (False, True)):
            changed = add_imports(module, imports, new=new, join=join)
            assert engine._code_after(module, changed, text) == changed.code
        applied = engine.apply_edits(text, engine.import_edits(module, imports, text))
        whole = add_imports(module, imports).code
        if len(imports) == 1:
            assert applied == whole
        else:  # two new lines at one place come as two insertions there, in the order of the sections
            assert sorted(applied.splitlines()) == sorted(whole.splitlines())
