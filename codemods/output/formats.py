"""One function per format; each takes the findings (and the rules for their documentation) and returns text."""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Sequence
from importlib.metadata import PackageNotFoundError, version

from codemods.rule import Finding
from codemods.rules import RULES


def text(findings: Sequence[Finding], unsafe: bool = False) -> str:
    """`path:line:col: GM101 [*] message`, one a line; `[*]` marks what `graphmend fix` will fix."""
    lines = []
    for f in findings:
        fixable = f.fix == "safe" or (f.fix == "unsafe" and unsafe)
        lines.append(f"{f.location()}: {f.code}{' [*]' if fixable else ''} {f.message}\n")
    return "".join(lines)


def as_json(findings: Sequence[Finding], unsafe: bool = False) -> str:
    """Every finding with its rule, span, message, fix applicability and the edit (ruff's shape)."""
    return json.dumps([_json_finding(f) for f in findings], indent=2, ensure_ascii=False) + "\n"


def _json_finding(f: Finding) -> dict:
    span = {"location": {"row": f.line, "column": f.column},
            "end_location": {"row": f.end_line, "column": f.end_column}}  # fmt: skip
    fix = None
    if f.fix is not None:
        fix = {"applicability": f.fix, "edits": [{"content": f.replacement, **span}]}
    return {"code": f.code, "name": f.name, "message": f.message, "filename": f.path, **span, "fix": fix}


def sarif(findings: Sequence[Finding], unsafe: bool = False) -> str:
    """SARIF 2.1.0, as GitHub code scanning accepts it: one run, the rules, results with fixes."""
    used = sorted({f.code for f in findings})
    rules = [_sarif_rule(code) for code in used]
    run = {
        "tool": {"driver": {"name": "graphmend", "version": _version(),
                            "informationUri": "https://pypi.org/project/graphmend/", "rules": rules}},
        "results": [_sarif_result(f, used.index(f.code)) for f in findings],
    }  # fmt: skip
    document = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [run],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def _sarif_rule(code: str) -> dict:
    rule = RULES[code]
    doc = inspect.getdoc(rule) or ""
    return {
        "id": code,
        "name": rule.NAME,
        "shortDescription": {"text": doc.splitlines()[0] if doc else rule.NAME},
        "fullDescription": {"text": doc},
        "help": {"text": doc},
        "properties": {"breaks": rule.BREAKS, "fix": rule.FIX},
    }


def _sarif_result(f: Finding, rule_index: int) -> dict:
    region = {"startLine": f.line, "startColumn": f.column, "endLine": f.end_line, "endColumn": f.end_column}
    artifact = {"uri": f.path.replace("\\", "/")}
    result = {
        "ruleId": f.code,
        "ruleIndex": rule_index,
        "level": "warning",
        "message": {"text": f.message},
        "locations": [{"physicalLocation": {"artifactLocation": artifact, "region": region}}],
    }
    if f.fix is not None and f.replacement is not None:
        change = {"artifactLocation": artifact,
                  "replacements": [{"deletedRegion": region, "insertedContent": {"text": f.replacement}}]}  # fmt: skip
        result["fixes"] = [{"description": {"text": f"{f.fix} fix"}, "artifactChanges": [change]}]
    return result


def github(findings: Sequence[Finding], unsafe: bool = False) -> str:
    """GitHub Actions workflow commands: each finding becomes an annotation on the pull request."""
    lines = []
    for f in findings:
        props = f"file={f.path},line={f.line},col={f.column},endLine={f.end_line},endColumn={f.end_column}"
        title = f"{f.code} {f.name}"
        lines.append(f"::warning {props},title={_escape_property(title)}::{_escape_data(f.message)}\n")
    return "".join(lines)


def _escape_data(value: str) -> str:
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(value: str) -> str:
    return _escape_data(value).replace(":", "%3A").replace(",", "%2C")


def _version() -> str:
    try:
        return version("graphmend")
    except PackageNotFoundError:
        return "0"


FORMATS: dict[str, Callable[..., str]] = {"text": text, "json": as_json, "sarif": sarif, "github": github}


def render(fmt: str, findings: Sequence[Finding], unsafe: bool = False) -> str:
    return FORMATS[fmt](findings, unsafe)
