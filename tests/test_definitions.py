"""Top-level functions a fix adds (codemods/definitions.py): after the leading imports, once, with PEP 8's blank
lines, the file's comments kept; a name the file already defines is not added again."""

import libcst as cst

from graphmend.definitions import add_definitions

HELPER = 'def helper(x):\n    """A fix\'s helper."""\n    return x\n'


def _add(code: str, *definitions: str) -> str:
    return add_definitions(cst.parse_module(code), definitions).code


def test_after_the_imports_and_before_the_first_statement_with_two_blank_lines_around():
    code = '"""Doc."""\nimport os\nfrom mindspore import nn\n# a comment of the class\nclass A:\n    pass\n'
    assert _add(code, HELPER) == (
        '"""Doc."""\nimport os\nfrom mindspore import nn\n\n\n'
        + HELPER
        + "\n\n# a comment of the class\nclass A:\n    pass\n"
    )


def test_blank_lines_the_next_statement_has_count():
    code = "import os\n\n\nX = 1\n"
    assert _add(code, HELPER) == "import os\n\n\n" + HELPER + "\n\nX = 1\n"


def test_a_file_without_imports_or_statements():
    assert _add("", HELPER) == HELPER
    assert _add("X = 1\n", HELPER) == HELPER + "\n\nX = 1\n"
    assert _add('"""Only a docstring."""\n', HELPER) == '"""Only a docstring."""\n\n\n' + HELPER


def test_the_same_code_twice_and_a_name_the_file_defines_go_in_once():
    once = _add("import os\n", HELPER, HELPER)
    assert once.count("def helper") == 1
    assert _add(once, HELPER) == once
    mine = "import os\n\n\ndef helper(y):\n    return y\n"
    assert _add(mine, HELPER) == mine
