"""One function per format; each takes the findings (and the rules for their documentation) and returns text."""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Sequence
from importlib.metadata import PackageNotFoundError, version
from pathlib import PurePath
from urllib.parse import quote

from graphmend.finding import Edit, Finding
from graphmend.rules import INDEX, RULES
from graphmend.targets import Target

# Characters that let a file name or a message forge lines or terminal sequences: C0 controls (\n, \r,
# ESC...), DEL and C1 controls (\x9b is CSI on some terminals), the bidi embeddings, overrides and isolates
# that reorder what is shown (Trojan Source), the Unicode line and paragraph separators that editors and
# str.splitlines() break lines at; and lone surrogates (a POSIX file name that is not UTF-8), which make
# writing to a UTF-8 stream fail.
_CONTROLS = [*range(0x00, 0x20), *range(0x7F, 0xA0)]
_BIDI = [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]
_UNPRINTABLE = [*_CONTROLS, *_BIDI, 0x2028, 0x2029, *range(0xD800, 0xE000)]
_SHORT = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _visible(char: str) -> str:
    """How an unprintable character is written: as Python writes it in a string literal."""
    return _SHORT.get(char) or (f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}")


_PRINTABLE = str.maketrans({chr(c): _visible(chr(c)) for c in _UNPRINTABLE})


def printable(text: str) -> str:
    """`text` made safe for one line of terminal or text output: every control character (C0, DEL, C1),
    bidi override, line separator or lone surrogate becomes a visible escape (ESC → `\\x1b`, newline →
    `\\n`, U+202E → `\\u202e`); everything else, quotes, backslashes and CJK included, is kept as it is."""
    return text.translate(_PRINTABLE)


def text(findings: Sequence[Finding], unsafe: bool = False) -> str:
    """`path:line:col: GM101 [*] message`, one a line; `[*]` marks what `graphmend fix` will fix."""
    lines = []
    for f in findings:
        fixable = f.fix == "safe" or (f.fix == "unsafe" and unsafe)
        lines.append(f"{printable(f.location())}: {f.code}{' [*]' if fixable else ''} {printable(f.message)}\n")
    return "".join(lines)


# json.dumps escapes C0 controls; with ensure_ascii=False (to keep messages and CJK paths readable) DEL,
# C1, bidi overrides, line separators and lone surrogates would be written raw. Outside strings the JSON
# text is ASCII, so these characters are always inside a string, where a \u escape stands for the same text.
_JSON_ESCAPES = str.maketrans({chr(c): f"\\u{c:04x}" for c in _UNPRINTABLE if c >= 0x7F})


def _dumps(document: object) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False).translate(_JSON_ESCAPES) + "\n"


def as_json(findings: Sequence[Finding], unsafe: bool = False) -> str:
    """Every finding with its rule, span, message, fix applicability and the edit (ruff's shape)."""
    return _dumps([_json_finding(f) for f in findings])


# Where the rules are documented: the README's rules section, in the repository graphmend comes from. Every
# link to a rule's documentation (JSON `url`, SARIF `helpUri`, `rules --output-format json`) is rule_url's.
REPOSITORY = "https://github.com/graphmend/graphmend"
RULES_ANCHOR = "the-rules"  # GitHub's anchor for the README heading "### The rules"


def rule_url(code: str) -> str:
    """The page that documents rule `code` (`graphmend rules CODE` prints the same text)."""
    return f"{REPOSITORY}/blob/main/README.md#{RULES_ANCHOR}"


def _json_finding(f: Finding) -> dict:
    span = {"location": {"row": f.line, "column": f.column},
            "end_location": {"row": f.end_line, "column": f.end_column}}  # fmt: skip
    fix = None
    if f.fix is not None:
        fix = {"applicability": f.fix, "edits": [_json_edit(e) for e in f.edits]}
    return {"code": f.code, "name": f.name, "message": f.message, "filename": f.path, **span, "fix": fix,
            "targets": _targets(f.code), "url": rule_url(f.code)}  # fmt: skip


def _targets(code: str) -> list[str]:
    """The targets a finding of `code` is reported for (graphmend.targets)."""
    return [t.value for t in INDEX[code].BREAKS.targets]


def _breaks(code: str) -> dict:
    """A rule's `BREAKS`, structured: what the checks measured, what no check runs, and the human text."""
    b = INDEX[code].BREAKS
    return {"measured": [t.value for t in Target if t in b.measured],
            "together": [t.value for t in Target if t in b.together], "silent": b.silent, "pynative": b.pynative,
            "text": str(b)}  # fmt: skip


def _json_edit(edit: Edit) -> dict:
    return {"content": edit.content, "location": {"row": edit.line, "column": edit.column},
            "end_location": {"row": edit.end_line, "column": edit.end_column}}  # fmt: skip


def sarif(findings: Sequence[Finding], unsafe: bool = False) -> str:
    """SARIF 2.1.0, as GitHub code scanning accepts it: one run, the rules, results with fixes."""
    used = sorted({f.code for f in findings})
    rules = [_sarif_rule(code) for code in used]
    run = {
        "tool": {"driver": {"name": "graphmend", "version": _version(),
                            "informationUri": "https://pypi.org/project/graphmend/", "rules": rules}},
        "results": [_sarif_result(f, used.index(f.code)) for f in findings],
        "columnKind": "unicodeCodePoints",  # graphmend's columns count characters, as Python's do
    }  # fmt: skip
    document = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [run],
    }
    return _dumps(document)


def _sarif_rule(code: str) -> dict:
    rule = RULES[code]
    doc = inspect.getdoc(rule) or ""
    return {
        "id": code,
        "name": rule.NAME,
        "shortDescription": {"text": doc.splitlines()[0] if doc else rule.NAME},
        "fullDescription": {"text": doc},
        "help": {"text": doc},
        "helpUri": rule_url(code),
        "properties": {"targets": _targets(code), "breaks": _breaks(code), "fix": rule.FIX},
    }


def _sarif_result(f: Finding, rule_index: int) -> dict:
    region = {"startLine": f.line, "startColumn": f.column, "endLine": f.end_line, "endColumn": f.end_column}
    artifact = {"uri": artifact_uri(f.path)}
    result = {
        "ruleId": f.code,
        "ruleIndex": rule_index,
        "level": "warning",
        "message": {"text": f.message},
        "locations": [{"physicalLocation": {"artifactLocation": artifact, "region": region}}],
    }
    if f.fix is not None and f.edits:
        change = {"artifactLocation": artifact, "replacements": [_sarif_replacement(e) for e in f.edits]}
        result["fixes"] = [{"description": {"text": f"{f.fix} fix"}, "artifactChanges": [change]}]
    return result


def _sarif_replacement(edit: Edit) -> dict:
    region = {"startLine": edit.line, "startColumn": edit.column, "endLine": edit.end_line,
              "endColumn": edit.end_column}  # fmt: skip
    return {"deletedRegion": region, "insertedContent": {"text": edit.content}}


def artifact_uri(path: str) -> str:
    """The SARIF `artifactLocation.uri` of a path (RFC 3986): a relative reference with `/` separators,
    or a `file://` URI for an absolute path; `%`, `#`, `?`, `:`, spaces and non-ASCII are percent-encoded
    so that a consumer decodes the same file name (`pct%20#frag.py` would otherwise read as `pct #frag`)."""
    pure = PurePath(path)  # the platform's separators: `\\` on Windows, but a file name character on POSIX
    if pure.is_absolute():
        return pure.as_uri()  # percent-encodes, and keeps a Windows drive's `C:` as file:///C:/...
    # surrogateescape: a POSIX name that is not UTF-8 is encoded as the bytes it has on disk
    return quote(pure.as_posix(), safe="/", errors="surrogateescape")


def github(findings: Sequence[Finding], unsafe: bool = False) -> str:
    """GitHub Actions workflow commands: each finding becomes an annotation on the pull request."""
    lines = []
    for f in findings:
        props = {"file": f.path, "line": f.line, "col": f.column, "endLine": f.end_line, "endColumn": f.end_column,
                 "title": f"{f.code} {f.name}"}  # fmt: skip
        # every property escaped: a `,` or `:` in a file name would otherwise add properties or end them
        joined = ",".join(f"{key}={_escape_property(str(value))}" for key, value in props.items())
        lines.append(f"::warning {joined}::{_escape_data(f.message)}\n")
    return "".join(lines)


# As @actions/core's escapeData and escapeProperty: the runner unescapes exactly these.
def _escape_data(value: str) -> str:
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(value: str) -> str:
    return _escape_data(value).replace(":", "%3A").replace(",", "%2C")


def rule_page(rule) -> dict:
    """A rule as `graphmend rules --output-format json` gives it (ruff's `rule --output-format json`)."""
    doc = inspect.getdoc(rule) or ""
    return {"code": rule.CODE, "name": rule.NAME, "default": rule.DEFAULT, "fix": rule.FIX,
            "targets": _targets(rule.CODE), "breaks": _breaks(rule.CODE),
            "summary": doc.splitlines()[0] if doc else "", "explanation": doc, "url": rule_url(rule.CODE)}  # fmt: skip


def _version() -> str:
    try:
        return version("graphmend")
    except PackageNotFoundError:
        return "0"


# `concise` is ruff's name for `text`; `full` (the code frames, graphmend.output.full) needs the source
FORMATS: dict[str, Callable[..., str]] = {"text": text, "concise": text, "json": as_json, "sarif": sarif,
                                         "github": github}  # fmt: skip


def render(fmt: str, findings: Sequence[Finding], unsafe: bool = False) -> str:
    return FORMATS[fmt](findings, unsafe)
