"""[tool.graphmend] is type- and range-checked: a wrong value is a ConfigError that names the file, the key, what
was expected and what was found (and through the CLI: `error: ...`, exit 2, no traceback); an unknown key is a
warning in Settings.warnings, not an error."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from test_cli import CLEAN, gm

from graphmend import config
from graphmend.config import ConfigError, Settings, VerifyTarget


def _write(directory: Path, body: str) -> Path:
    """A pyproject.toml with `body` under [tool.graphmend]; its path as config.load reports a found one."""
    pyproject = directory / "pyproject.toml"
    pyproject.write_text("[tool.graphmend]\n" + textwrap.dedent(body), encoding="utf-8")
    return directory.resolve() / "pyproject.toml"


def _id(body: str) -> str:
    return body.replace("\n", " ")[:60]


def _error(directory: Path, explicit: Path | None = None) -> str:
    with pytest.raises(ConfigError) as raised:
        config.load([directory], explicit)
    return str(raised.value)


# -- valid values still load -----------------------------------------------------------------------


def test_every_key_with_a_valid_value_loads(tmp_path: Path) -> None:
    source = _write(
        tmp_path,
        """\
        select = ["GM", "GM302"]
        ignore = ["GM402"]
        unsafe-fixes = true
        exclude = ["third_party/**"]
        per-file-ignores = { "tests/**" = ["GM101"], "*_pb2.py" = [] }
        max-file-size = 16

        [[tool.graphmend.verify]]
        cell = "head.py:Head"
        init = { dim = 16, names = ["a"] }
        inputs = ["float32[B=2,5,16]"]

        [[tool.graphmend.verify]]
        cell = "sub/model.py:Model"
        """,
    )
    assert config.load([tmp_path]) == Settings(
        root=tmp_path.resolve(),
        source=source,
        select=("GM", "GM302"),
        ignore=("GM402",),
        unsafe_fixes=True,
        exclude=("third_party/**",),
        per_file_ignores={"tests/**": ("GM101",), "*_pb2.py": ()},
        max_file_size=16.0,
        verify=(
            VerifyTarget("head.py:Head", {"dim": 16, "names": ["a"]}, ("float32[B=2,5,16]",)),
            VerifyTarget("sub/model.py:Model"),
        ),
    )


def test_an_empty_table_gives_the_defaults(tmp_path: Path) -> None:
    source = _write(tmp_path, "")
    assert config.load([tmp_path]) == Settings(root=tmp_path.resolve(), source=source)


@pytest.mark.parametrize("size", ["0.5", "1024", "4.0"])
def test_max_file_size_accepts_ints_and_floats_in_range(tmp_path: Path, size: str) -> None:
    _write(tmp_path, f"max-file-size = {size}\n")
    assert config.load([tmp_path]).max_file_size == float(size)


# -- a wrong value is a ConfigError with one exact message -----------------------------------------

VERIFY = '[[tool.graphmend.verify]]\ncell = "head.py:Head"\n'
MB = "max-file-size: expected a number of megabytes > 0 and <= 1024, got "
STRINGS = "expected a list of strings, got "
ARRAY = "verify: expected an array of tables [[tool.graphmend.verify]], got "
ENTRY = "[[tool.graphmend.verify]] #"
CELL = 'cell: expected "path/to/file.py:Cell", got '
BAD = [
    ('unsafe-fixes = "false"', 'unsafe-fixes: expected true or false, got "false"'),
    ("unsafe-fixes = 0", "unsafe-fixes: expected true or false, got 0"),
    ('max-file-size = "big"', MB + '"big"'),
    ("max-file-size = nan", MB + "nan"),
    ("max-file-size = inf", MB + "inf"),
    ("max-file-size = -inf", MB + "-inf"),
    ("max-file-size = 1e400", MB + "inf"),  # tomllib reads it as inf
    ("max-file-size = -1", MB + "-1"),
    ("max-file-size = 0", MB + "0"),
    ("max-file-size = 1025", MB + "1025"),
    ("max-file-size = true", MB + "true"),  # a bool is an int to Python
    ("max-file-size = " + "9" * 400, MB + "9" * 77 + "..."),  # float() of it would raise OverflowError
    ('select = "GM1"', "select: " + STRINGS + '"GM1"'),
    ('select = ["GM1", 2]', "select: " + STRINGS + '["GM1", 2]'),
    ("ignore = { GM1 = true }", "ignore: " + STRINGS + "{ GM1 = true }"),
    ('exclude = "third_party/**"', "exclude: " + STRINGS + '"third_party/**"'),
    ('per-file-ignores = ["tests/**"]', 'per-file-ignores: expected a table of glob = [codes], got ["tests/**"]'),
    ('per-file-ignores = { "tests/**" = "GM101" }', 'per-file-ignores."tests/**": ' + STRINGS + '"GM101"'),
    ("per-file-ignores = { tests = [1] }", "per-file-ignores.tests: " + STRINGS + "[1]"),
    ('[tool.graphmend.verify]\ncell = "head.py:Head"', ARRAY + '{ cell = "head.py:Head" }'),
    ('verify = "head.py:Head"', ARRAY + '"head.py:Head"'),
]
BAD_VERIFY = [
    ("verify = [1]", ENTRY + '1: expected a table with cell = "path/to/file.py:Cell", got 1'),
    (VERIFY + VERIFY + "init = 3", ENTRY + "2 init: expected a table of keyword arguments, got 3"),
    (VERIFY + "init = [16]", ENTRY + "1 init: expected a table of keyword arguments, got [16]"),
    (VERIFY + 'inputs = "float32[2]"', ENTRY + "1 inputs: " + STRINGS + '"float32[2]"'),
    (VERIFY + 'inputs = ["float32[2]", 2]', ENTRY + "1 inputs: " + STRINGS + '["float32[2]", 2]'),
    ("[[tool.graphmend.verify]]\ninit = {}", ENTRY + '1: missing cell = "path/to/file.py:Cell"'),
    ('[[tool.graphmend.verify]]\ncell = "head.py"', ENTRY + "1 " + CELL + '"head.py"'),
    ('[[tool.graphmend.verify]]\ncell = "head.py:"', ENTRY + "1 " + CELL + '"head.py:"'),
    ("[[tool.graphmend.verify]]\ncell = 3", ENTRY + "1 " + CELL + "3"),
]


@pytest.mark.parametrize(("body", "message"), BAD, ids=[_id(body) for body, _ in BAD])
def test_a_wrong_value_names_the_key_what_is_expected_and_what_was_found(tmp_path: Path, body: str, message: str):
    source = _write(tmp_path, body + "\n")
    assert _error(tmp_path) == f"{source}: [tool.graphmend] {message}"


@pytest.mark.parametrize(("body", "message"), BAD_VERIFY, ids=[_id(body) for body, _ in BAD_VERIFY])
def test_a_wrong_verify_entry_is_named_by_its_number(tmp_path: Path, body: str, message: str) -> None:
    source = _write(tmp_path, body + "\n")
    assert _error(tmp_path) == f"{source}: {message}"


def test_what_was_found_is_quoted_as_toml_and_cut_short(tmp_path: Path) -> None:
    source = _write(tmp_path, 'ignore = "two\\nlines é"\n')
    assert _error(tmp_path) == f'{source}: [tool.graphmend] ignore: expected a list of strings, got "two\\nlines é"'
    _write(tmp_path, f"ignore = [{', '.join(map(str, range(20)))}]\n")
    assert _error(tmp_path).endswith("got [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, ...]")
    _write(tmp_path, 'exclude = { "a b" = 1979-05-27T07:32:00Z, c = [[[[[1]]]]] }\n')
    assert _error(tmp_path).endswith('got { "a b" = 1979-05-27T07:32:00+00:00, c = [[[...]]] }')


# -- the file itself -------------------------------------------------------------------------------


def test_a_graphmend_key_that_is_not_a_table(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool]\ngraphmend = 3\n")
    assert _error(tmp_path) == f"{tmp_path.resolve() / 'pyproject.toml'}: [tool.graphmend]: expected a table, got 3"


def test_a_tool_key_that_is_not_a_table_holds_no_config(tmp_path: Path) -> None:
    outer = _write(tmp_path, 'ignore = ["GM101"]\n')
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "pyproject.toml").write_text('tool = "graphmend"\n')  # once found: "graphmend" in a str
    assert config.find_config([tmp_path / "pkg"]) == outer


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"[tool.graphmend\n", "invalid TOML: Expected ']' at the end of a table declaration (at line 1, column 16)"),
        (b"x = " + b"[" * 5000 + b"]" * 5000, "invalid TOML: nested too deeply"),
        (b"\xff[tool.graphmend]\n", "cannot read: not UTF-8 ('utf-8' codec can't decode byte 0xff in position 0: "
                                    "invalid start byte)"),
    ],
    ids=["syntax", "nesting", "encoding"],
)  # fmt: skip
def test_a_pyproject_that_cannot_be_parsed_is_an_error_even_when_only_found(tmp_path: Path, data: bytes, message: str):
    (tmp_path / "pyproject.toml").write_bytes(data)
    assert _error(tmp_path) == f"{tmp_path.resolve() / 'pyproject.toml'}: {message}"


def test_an_explicit_config_that_is_missing_or_a_directory(tmp_path: Path) -> None:
    missing = tmp_path / "nope.toml"
    assert _error(tmp_path, missing) == f"{missing}: cannot read: No such file or directory"
    assert _error(tmp_path, tmp_path) == f"{tmp_path}: cannot read: Is a directory"


def test_a_deleted_working_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "gone").mkdir()
    monkeypatch.chdir(tmp_path / "gone")
    (tmp_path / "gone").rmdir()
    assert _error(Path(".")) == ".: cannot resolve: No such file or directory"


# -- unknown keys are warnings ---------------------------------------------------------------------


def test_unknown_keys_are_warned_about_with_the_closest_known_key(tmp_path: Path) -> None:
    source = _write(
        tmp_path,
        """\
        selct = ["GM1"]
        unsafe_fixes = true
        colour = "always"

        [[tool.graphmend.verify]]
        cell = "head.py:Head"

        [[tool.graphmend.verify]]
        cell = "head.py:Tail"
        input = ["float32[2]"]
        """,
    )
    settings = config.load([tmp_path])
    assert settings.warnings == (
        f'{source}: [tool.graphmend] unknown key "selct" (did you mean "select"?)',
        f'{source}: [tool.graphmend] unknown key "unsafe_fixes" (did you mean "unsafe-fixes"?)',
        f'{source}: [tool.graphmend] unknown key "colour"',
        f'{source}: [[tool.graphmend.verify]] #2 unknown key "input" (did you mean "inputs"?)',
    )
    # the unknown keys are ignored, the known ones still apply
    assert (settings.select, settings.unsafe_fixes) == (None, False)
    assert settings.verify == (VerifyTarget("head.py:Head"), VerifyTarget("head.py:Tail"))


def test_no_warnings_for_a_clean_config(tmp_path: Path) -> None:
    _write(tmp_path, 'select = ["GM1"]\n' + VERIFY)
    assert config.load([tmp_path]).warnings == ()


# -- through the CLI: `error: ...`, exit 2, no traceback -------------------------------------------


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('unsafe-fixes = "false"', '[tool.graphmend] unsafe-fixes: expected true or false, got "false"'),
        ('max-file-size = "big"', "[tool.graphmend] " + MB + '"big"'),
        ('[tool.graphmend.verify]\ncell = "a.py:A"', "[tool.graphmend] " + ARRAY + '{ cell = "a.py:A" }'),
        (VERIFY + VERIFY + "init = 3", ENTRY + "2 init: expected a table of keyword arguments, got 3"),
    ],
    ids=["unsafe-fixes string", "max-file-size big", "verify a table", "verify init"],
)  # fmt: skip
@pytest.mark.parametrize("command", [["check"], ["fix", "--diff"]])
def test_the_cli_prints_the_error_and_exits_2(tmp_path: Path, body: str, message: str, command: list[str]) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "clean.py").write_text(CLEAN)
    source = _write(tmp_path, body + "\n")
    done = gm(*command, "pkg", "--no-cache", "--jobs", "1", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert f"error: {source}: {message}" in done.stderr.splitlines()
    assert "Traceback" not in done.stderr and done.stdout == ""


@pytest.mark.parametrize(
    ("setup", "args", "line"),
    [
        ("missing", ["--config", "nope.toml"], "error: nope.toml: cannot read: No such file or directory"),
        ("invalid", [], "error: {root}/pyproject.toml: invalid TOML: Expected '=' after a key in a key/value pair "
                        "(at line 2, column 3)"),
        ("not utf-8", [], "error: {root}/pyproject.toml: cannot read: not UTF-8 ('utf-8' codec can't decode byte "
                          "0xff in position 0: invalid start byte)"),
    ],
    ids=["missing --config", "invalid TOML", "not UTF-8"],
)  # fmt: skip
def test_the_cli_reports_a_config_file_it_cannot_read(tmp_path: Path, setup: str, args: list[str], line: str) -> None:
    (tmp_path / "clean.py").write_text(CLEAN)
    if setup == "invalid":
        (tmp_path / "pyproject.toml").write_text("[tool.graphmend]\nx y\n")
    elif setup == "not utf-8":
        (tmp_path / "pyproject.toml").write_bytes(b"\xff[tool.graphmend]\n")
    done = gm("check", ".", *args, "--no-cache", "--jobs", "1", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert line.format(root=tmp_path.resolve()) in done.stderr.splitlines()
    assert "Traceback" not in done.stderr


def test_the_cli_runs_with_an_unknown_key(tmp_path: Path) -> None:
    # only that it is no longer fatal: printing Settings.warnings is the CLI's business
    (tmp_path / "clean.py").write_text(CLEAN)
    _write(tmp_path, 'selct = ["GM1"]\n')
    done = gm("check", ".", "--no-cache", "--jobs", "1", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
