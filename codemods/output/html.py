"""The migration report: one self-contained HTML page over the results of a fix run.

It shows the totals, a summary per rule, the verify tables, the files that could not be read, per
file the findings and the diff of its fixes, and the documentation of every rule that fired.
Everything that comes from user code (paths, sources, messages, verifier errors) goes through
`html.escape`. The page loads nothing: the CSS is inline, and the few lines of JS only add a filter
for the files; without them every part of the page is there.
"""

from __future__ import annotations

import difflib
import html
import inspect
import json
import os
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from importlib.metadata import PackageNotFoundError, version

from graphmend.files import FileResult
from graphmend.finding import Finding
from graphmend.rules import RULES, doc_sections
from graphmend.targets import spelled
from graphmend.verify import Report, render_json
from graphmend.verify.recording import NotReached

FIXED, UNSAFE, MANUAL = "fixed", "unsafe", "manual"
# what each finding needs; the report runs `fix` in memory and writes nothing, so a safe fix is "fixable"
STATUS_LABELS = {FIXED: "fixable", UNSAFE: "unsafe fix", MANUAL: "manual"}
TONES = {FIXED: "ok", UNSAFE: "warn", MANUAL: "bad"}


def render_report(
    results: Sequence[FileResult],
    verifications: Sequence[tuple[str, Report | str]] = (),
    unsafe: bool = False,
) -> str:
    """The whole page. `results` come from a fix run (`applied` are the fixes made, `findings` what
    remains); `verifications` pair a Cell's label with its Report, or the reason it could not run."""
    items = {r.path: _items(r, unsafe) for r in results}
    counts = Counter((i.finding.code, i.status) for found in items.values() for i in found)
    body = "".join(
        [
            _header(results, items, verifications, unsafe),
            _summary(counts, unsafe),
            _directories(results, items),
            _verifications(verifications),
            _errors(results),
            _files(results, items),
            _rules(sorted({code for code, _ in counts})),
            _footer(),
        ]
    )
    title = f"graphmend report — {_root(results)}"
    return (
        f'<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'<link rel="icon" href="data:,">\n<title>{_e(title)}</title>\n<style>{_STYLE}</style>\n</head>\n'
        f"<body>\n{body}\n<script>{_SCRIPT}</script>\n</body>\n</html>\n"
    )


# -- what the page counts ------------------------------------------------------------------------


@dataclass(frozen=True)
class _Item:
    finding: Finding
    status: str  # FIXED, UNSAFE or MANUAL
    source_line: str | None = None  # the line a remaining finding is on, in the fixed file


def _items(result: FileResult, unsafe: bool) -> list[_Item]:
    if result.error:
        return []
    lines = _source(result).splitlines()
    fixed = [_Item(f, FIXED) for f in result.applied]
    left = [_Item(f, _status(f, unsafe), _line(lines, f.line)) for f in result.findings]
    return sorted([*fixed, *left], key=lambda i: (i.finding.line, i.finding.column, i.finding.code))


def _status(finding: Finding, unsafe: bool) -> str:
    """What a finding left after the fix run needs: `--unsafe-fixes`, or a person.

    A safe fix can be left too (the fixer ran out of passes): a person has to look at it as well.
    """
    return UNSAFE if finding.fix == "unsafe" and not unsafe else MANUAL


def _source(result: FileResult) -> str:
    data = result.output if result.changed else result.original
    return (data or b"").decode(result.encoding, errors="replace")


def _line(lines: list[str], number: int) -> str | None:
    return lines[number - 1] if 0 < number <= len(lines) else None


def _root(results: Sequence[FileResult]) -> str:
    paths = [r.path for r in results]
    if not paths:
        return "no files"
    try:
        common = os.path.commonpath(paths)
    except ValueError:  # absolute and relative paths mixed
        return "several roots"
    return paths[0] if len(paths) == 1 else (common or ".") + os.sep


def _version() -> str:
    try:
        return version("graphmend")
    except PackageNotFoundError:
        return "unknown"


# -- header and summary --------------------------------------------------------------------------


def _header(results, items, verifications, unsafe: bool) -> str:
    every = [i for found in items.values() for i in found]
    by_status = Counter(i.status for i in every)
    errors = sum(1 for r in results if r.error)
    changed = sum(1 for r in results if r.changed)
    reports = [json.loads(render_json(r)) for _, r in verifications if not isinstance(r, str)]
    now = datetime.now().astimezone()
    mode = "diffs of the safe and unsafe fixes" if unsafe else "diffs of the safe fixes; unsafe ones listed"
    cards = [
        _card("files", len(results), "files", "#files", f"{changed} changed by fixes"),
        _card("found", len(every), "findings", "#summary"),
        _card("fixed", by_status[FIXED], "fixable", "#files", "by `graphmend fix`", "ok"),
        _card("unsafe", by_status[UNSAFE], "unsafe fix", "#files", "with `--unsafe-fixes`", "warn"),
        _card("manual", by_status[MANUAL], "manual", "#files", "no automatic fix", "bad"),
        _card("errors", errors, "errors", "#errors", "not read or parsed", "bad"),
    ]
    unreached = sum(1 for _, r in verifications if isinstance(r, NotReached))
    if len(verifications) > unreached:
        passed, tried = sum(1 for d in reports if d["passed"]), len(verifications) - unreached
        tone = "ok" if passed == tried else "bad"
        cards.append(_card("verified", passed, "verified", "#verification", f"of {tried} Cells", tone))
    if unreached:
        cards.append(_card("unverified", unreached, "not verified", "#verification", "from the recording", "warn"))
    return (
        '<header class="top"><div class="wrap">'
        '<div class="brand"><span class="logo">gm</span><span>graphmend</span></div>'
        f'<h1>Migration report <span class="root">{_e(_root(results))}</span></h1>'
        f'<p class="meta">Generated <time datetime="{now.isoformat(timespec="seconds")}">'
        f"{now:%Y-%m-%d %H:%M %Z}</time> · graphmend {_e(_version())} · {mode}</p>"
        f'<div class="cards">{"".join(cards)}</div>'
        f"{_next_steps(by_status, changed, errors)}</div></header>\n<main>"
    )


def _card(key: str, value: int, label: str, href: str, note: str = "", tone: str = "") -> str:
    zero = " zero" if value == 0 else ""
    return (
        f'<a class="card {tone}{zero}" href="{href}" data-total="{key}">'
        f'<span class="value">{value}</span><span class="label">{label}</span>'
        f'<span class="note">{_inline(note)}</span></a>'
    )


def _next_steps(by_status: Counter, changed: int, errors: int) -> str:
    steps = []
    if by_status[FIXED]:
        steps.append(f"`graphmend fix` applies the {by_status[FIXED]} fix(es) shown below, in {changed} file(s).")
    if by_status[UNSAFE]:
        steps.append(f"{by_status[UNSAFE]} more can be fixed with `graphmend fix --unsafe-fixes`: "
                     "read each one first, their rules say what may change.")  # fmt: skip
    if by_status[MANUAL]:
        steps.append(f"{by_status[MANUAL]} finding(s) need a person: the rule's documentation below "
                     "says what to write instead.")  # fmt: skip
    if errors:
        steps.append(f"{errors} file(s) could not be read or parsed: nothing in them was checked.")
    if not steps:
        steps.append("Nothing to do: no graph-hostile code found.")
    return '<ul class="steps">' + "".join(f"<li>{_inline(s)}</li>" for s in steps) + "</ul>"


def _summary(counts: Counter, unsafe: bool) -> str:
    codes = sorted({code for code, _ in counts})
    head = (
        "<tr><th>rule</th><th>breaks</th><th>fix</th><th class=n>found</th>"
        f"<th class=n>fixable{' (safe + unsafe)' if unsafe else ''}</th>"
        "<th class=n>unsafe fix</th><th class=n>manual</th><th>share</th></tr>"
    )
    if not codes:
        return _section("summary", "Summary per rule", '<p class="empty">No findings.</p>')
    most = max(sum(counts[c, s] for s in STATUS_LABELS) for c in codes) or 1
    rows = [_summary_row(code, counts, most) for code in codes]
    total = {s: sum(counts[c, s] for c in codes) for s in STATUS_LABELS}
    foot = (
        f'<tr data-rule="total"><th colspan=3>total</th>{_count("found", sum(total.values()))}'
        f"{_count(FIXED, total[FIXED])}{_count(UNSAFE, total[UNSAFE])}{_count(MANUAL, total[MANUAL])}<td></td></tr>"
    )
    table = f'<table class="summary"><thead>{head}</thead><tbody>{"".join(rows)}</tbody><tfoot>{foot}</tfoot></table>'
    return _section("summary", "Summary per rule", table)


def _summary_row(code: str, counts: Counter, most: int) -> str:
    rule = RULES.get(code)
    found = sum(counts[code, s] for s in STATUS_LABELS)
    name = _e(rule.NAME) if rule else ""
    breaks = f"{_e(str(rule.BREAKS))}<br><small>targets: {_e(spelled(rule.BREAKS.targets))}</small>" if rule else ""
    fix = f'<span class="chip">{_e(rule.FIX)}</span>' if rule else ""
    return (
        f'<tr data-rule="{_e(code)}"><td class="rule"><a href="#rule-{_e(code)}"><code>{_e(code)}</code></a> '
        f'{name}</td><td class="breaks">{breaks}</td><td>{fix}</td>{_count("found", found)}'
        f"{_count(FIXED, counts[code, FIXED])}{_count(UNSAFE, counts[code, UNSAFE])}"
        f'{_count(MANUAL, counts[code, MANUAL])}<td class="share"><span class="bar" '
        f'style="width:{100 * found / most:.0f}%"></span></td></tr>'
    )


def _directories(results: Sequence[FileResult], items: dict[str, list[_Item]]) -> str:
    """Per directory: files checked, files with findings, findings by what they need, and a bar of the
    findings' share (the directories with most first)."""
    rows: dict[str, Counter] = {}
    for result in results:
        folder = os.path.dirname(result.path) or "."
        row = rows.setdefault(folder, Counter())
        row["files"] += 1
        row["with findings"] += bool(items[result.path])
        for item in items[result.path]:
            row["found"] += 1
            row[item.status] += 1
    if len(rows) < 2 and not any(r["found"] for r in rows.values()):
        return ""
    most = max(r["found"] for r in rows.values()) or 1
    head = (
        "<tr><th>directory</th><th class=n>files</th><th class=n>with findings</th><th class=n>found</th>"
        "<th class=n>fixable</th><th class=n>unsafe fix</th><th class=n>manual</th><th>share</th></tr>"
    )
    body = []
    for folder, row in sorted(rows.items(), key=lambda kv: (-kv[1]["found"], kv[0])):
        counts = "".join(_count(k, row[k]) for k in ("files", "with findings", "found", FIXED, UNSAFE, MANUAL))
        bar = f'<span class="bar" style="width:{100 * row["found"] / most:.0f}%"></span>'
        body.append(f'<tr data-dir="{_e(folder)}"><td><code>{_e(folder)}</code></td>{counts}<td class="share">'
                    f"{bar}</td></tr>")  # fmt: skip
    table = f'<table class="summary dirs"><thead>{head}</thead><tbody>{"".join(body)}</tbody></table>'
    return _section("directories", "Per directory", table)


def _count(key: str, value: int) -> str:
    return f'<td class="n{" zero" if value == 0 else ""} {key}" data-count="{key}">{value}</td>'


# -- verification --------------------------------------------------------------------------------


def _verifications(verifications: Sequence[tuple[str, Report | str]]) -> str:
    if not verifications:
        return ""
    intro = (
        '<p class="lede">Each Cell is compiled in GRAPH_MODE before and after the rewrite and its outputs '
        "and Parameters are compared with PyNative. A failing <em>before</em> is the bug the fix removes; "
        "<em>after</em> must pass.</p>"
    )
    cards = [_verify_card(label, r) for label, r in verifications]
    return _section("verification", "Verification", intro + "".join(cards))


def _verify_card(label: str, report: Report | str) -> str:
    if isinstance(report, NotReached):
        return (
            f'<div class="verify" data-cell="{_e(label)}"><h3><code>{_e(label)}</code> '
            f'<span class="badge warn">not verified</span></h3><p class="problem">{_e(report)}</p></div>'
        )
    if isinstance(report, str):
        return (
            f'<div class="verify" data-cell="{_e(label)}"><h3><code>{_e(label)}</code> '
            f'<span class="badge bad">not run</span></h3><p class="problem">{_e(report)}</p></div>'
        )
    data = json.loads(render_json(report))  # the JSON form: the page does not reach into Report
    badge = '<span class="badge ok">pass</span>' if data["passed"] else '<span class="badge bad">fail</span>'
    rows = []
    for check in dict.fromkeys(v["check"] for v in data["verdicts"]):
        group = [v for v in data["verdicts"] if v["check"] == check]  # before, then after
        rows += [_verdict_row(v, n, len(group)) for n, v in enumerate(group)]
    table = (
        '<table class="verdicts"><thead><tr><th class="check">check</th><th class="version">version</th>'
        '<th class="result">result</th><th class="n num">max abs err</th><th class="n num">max rel err</th>'
        '<th class="n num">compile s</th><th>first error line</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
    )
    return (
        f'<div class="verify" data-cell="{_e(label)}"><h3><code>{_e(label)}</code> {badge}</h3>'
        f'<ul class="facts">{"".join(f"<li>{_e(line)}</li>" for line in _verify_facts(data))}</ul>'
        f'<div class="scroll">{table}</div></div>'
    )


def _verify_facts(data: dict) -> list[str]:
    names = {"before": "original", "after": "rewritten version"}
    ref = data["reference"]
    facts = [f"inputs: {', '.join(data['inputs']) or 'none'}"]
    facts += [f"the {names[v]} fails in PyNative: {f['kind']}: {f['message']}" for v, f in ref["failures"]]
    if ref["version"] is None:
        facts.append("no version runs in PyNative: there is nothing to compare with")
    else:
        facts.append(f"reference: the {names[ref['version']]} in PyNative")
    if ref["random"]:
        facts.append("outputs change with the seed (random ops): shapes and dtypes compared, not values")
    t = data["timings"]
    facts.append(f"{len(t['import_s'])} worker(s); compile {t['compile_s']:.1f} s; wall {t['wall_s']:.1f} s")
    return facts + list(data["notes"])


def _verdict_row(verdict: dict, n: int, of: int) -> str:
    if not verdict["passed"]:
        result = '<span class="badge bad">✗ fail</span>'
    elif not verdict["values_compared"]:
        result = '<span class="badge warn">✓ shapes</span>'
    else:
        result = '<span class="badge ok">✓ pass</span>'
    check = f'<th rowspan={of} scope="rowgroup">{_e(verdict["check"])}</th>' if n == 0 else ""
    return (
        f'<tr class="{"last" if n == of - 1 else ""}" data-check="{_e(verdict["check"])}" '
        f'data-version="{_e(verdict["version"])}" data-passed="{str(verdict["passed"]).lower()}">'
        f"{check}<td>{_e(verdict['version'])}</td><td>{result}</td>"
        f"<td class=n>{_num(verdict['max_abs'])}</td><td class=n>{_num(verdict['max_rel'])}</td>"
        f"<td class=n>{_num(verdict['compile_s'], '{:.2f}')}</td>"
        f'<td class="problem">{_problem(verdict)}</td></tr>'
    )


def _problem(verdict: dict) -> str:
    failure = verdict["failure"]
    if failure is None:
        return _e((verdict["problem"] or verdict["note"] or "").partition("\n")[0])
    stage = f"{failure['stage']}: " if failure["stage"] else ""
    first = f"{stage}{failure['kind']}: {failure['message'].partition(chr(10))[0]}"
    text = f'<span class="clamp" title="{_e(first)}">{_e(first)}</span>'
    where = failure["where"]
    if where:
        text += f'<code class="where">{_e(where["path"])}:{where["line"]}  {_e(where["code"])}</code>'
    return text


def _num(value: float | None, fmt: str = "{:.3g}") -> str:
    return "" if value is None else fmt.format(value)


# -- errors and files ----------------------------------------------------------------------------


def _errors(results: Sequence[FileResult]) -> str:
    failed = [r for r in results if r.error]
    if not failed:
        return ""
    rows = []
    for r in failed:
        err = r.error
        line = _line(r.original.decode(r.encoding, errors="replace").splitlines(), err.line or 0)
        shown = f'<code class="src">{_e(line)}</code>' if line is not None and line.strip() else ""
        rows.append(
            f'<tr data-path="{_e(r.path)}"><td class="loc"><code>{_e(err.location())}</code></td>'
            f"<td>{_e(err.message)}{shown}</td></tr>"
        )
    table = f'<table class="errors"><tbody>{"".join(rows)}</tbody></table>'
    lede = '<p class="lede">graphmend could not check these files; fix them and run it again.</p>'
    return _section("errors", f"Errors <span class=count>{len(failed)}</span>", lede + table)


def _files(results: Sequence[FileResult], items: dict[str, list[_Item]]) -> str:
    shown = [r for r in results if not r.error and (items[r.path] or r.changed)]
    clean = [r for r in results if not r.error and not (items[r.path] or r.changed)]
    codes = sorted({i.finding.code for found in items.values() for i in found})
    rules = "".join(f'<option value="{_e(c)}">{_e(c)}</option>' for c in codes)
    fixes = "".join(f'<option value="{k}">{_e(v)}</option>' for k, v in STATUS_LABELS.items())
    toolbar = (
        '<div class="toolbar" hidden><input type="search" id="filter" placeholder="Filter files by path"'
        ' aria-label="Filter files by path">'
        f'<select id="rule-filter" aria-label="Rule"><option value="">every rule</option>{rules}</select>'
        f'<select id="fix-filter" aria-label="Fix"><option value="">any fix</option>{fixes}</select>'
        '<label><input type="checkbox" id="open-only"> only files with findings left</label></div>'
    )
    parts = [toolbar] + [_file(n, r, items[r.path]) for n, r in enumerate(shown, 1)]
    if clean:
        names = "".join(f"<li><code>{_e(r.path)}</code></li>" for r in clean)
        parts.append(f'<details class="clean"><summary>{len(clean)} file(s) without findings</summary>'
                     f"<ul>{names}</ul></details>")  # fmt: skip
    if not shown and not clean:
        parts.append('<p class="empty">No Python files were checked.</p>')
    return _section("files", f"Files <span class=count>{len(shown)}</span>", "".join(parts))


def _file(number: int, result: FileResult, items: list[_Item]) -> str:
    by_status = Counter(i.status for i in items)
    badges = "".join(
        f'<span class="badge {TONES[s]}">{by_status[s]} {STATUS_LABELS[s]}</span>'
        for s in STATUS_LABELS
        if by_status[s]
    )
    left = "yes" if by_status[UNSAFE] or by_status[MANUAL] else "no"
    rows = "".join(_finding_row(i) for i in items)
    findings = f'<table class="findings"><tbody>{rows}</tbody></table>' if rows else ""
    diff = _diff(result.diff()) if result.changed else ""
    return (
        f'<details class="file" id="file-{number}" open data-path="{_e(result.path)}" data-left="{left}">'
        f'<summary><code class="path">{_e(result.path)}</code>{badges}</summary>'
        f'<div class="body">{findings}{diff}</div></details>'
    )


def _finding_row(item: _Item) -> str:
    f = item.finding
    label, tone = STATUS_LABELS[item.status], TONES[item.status]
    if item.status == FIXED and f.fix == "unsafe":  # applied because --unsafe-fixes was given: review it
        label, tone = "fixable (unsafe)", "warn"
    source = ""
    if item.source_line is not None and item.source_line.strip():
        source = f'<code class="src">{_excerpt(item.source_line, f)}</code>'
    return (
        f'<tr class="finding" data-code="{_e(f.code)}" data-status="{item.status}">'
        f'<td class="loc"><code>{f.line}:{f.column}</code></td>'
        f'<td class="rule"><a class="code" href="#rule-{_e(f.code)}">{_e(f.code)}</a></td>'
        f'<td class="status"><span class="badge {tone}">{label}</span></td>'
        f'<td class="message">{_inline(f.message)}{source}</td></tr>'
    )


def _excerpt(line: str, f: Finding) -> str:
    """The source line, with the finding's span marked when it starts and ends on this line."""
    start, end = f.column - 1, f.end_column - 1 if f.end_line == f.line else len(line)
    if not 0 <= start < end <= len(line):
        return _e(line.strip())
    return f"{_e(line[:start].lstrip())}<mark>{_e(line[start:end])}</mark>{_e(line[end:])}"


# -- the diff ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _DiffLine:
    kind: str  # "hunk", "add", "del", "ctx" or "note"
    old: int | None
    new: int | None
    text: str


_HUNK = re.compile(r"@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@(.*)")
_TOKEN = re.compile(r"\w+|\s+|[^\w\s]")


def _diff(diff: str) -> str:
    lines = _parse_diff(diff)
    marks = _word_marks(lines)
    rows = "".join(_diff_row(n, line, marks.get(n)) for n, line in enumerate(lines))
    return f'<div class="diff"><table><tbody>{rows}</tbody></table></div>'


def _parse_diff(diff: str) -> list[_DiffLine]:
    parsed: list[_DiffLine] = []
    old = new = 0
    for text in diff.splitlines():
        hunk = _HUNK.match(text)
        if hunk:
            old, new = int(hunk[1]), int(hunk[2])
            parsed.append(_DiffLine("hunk", None, None, text))
        elif not parsed:
            continue  # the ---/+++ header: the file's name is the section's title
        elif text.startswith("+"):
            parsed.append(_DiffLine("add", None, new, text[1:]))
            new += 1
        elif text.startswith("-"):
            parsed.append(_DiffLine("del", old, None, text[1:]))
            old += 1
        elif text.startswith("\\"):
            parsed.append(_DiffLine("note", None, None, text[2:]))
        else:
            parsed.append(_DiffLine("ctx", old, new, text[1:]))
            old, new = old + 1, new + 1
    return parsed


def _word_marks(lines: list[_DiffLine]) -> dict[int, list[tuple[int, int]]]:
    """Changed character ranges for each removed line paired with an added one (runs of equal length)."""
    marks: dict[int, list[tuple[int, int]]] = {}
    n = 0
    while n < len(lines):
        dels = _run(lines, n, "del")
        adds = _run(lines, n + dels, "add")
        if dels and dels == adds:
            for k in range(dels):
                before, after = _changed(lines[n + k].text, lines[n + dels + k].text)
                if before is not None:
                    marks[n + k], marks[n + dels + k] = before, after
        n += max(dels + adds, 1)
    return marks


def _run(lines: list[_DiffLine], start: int, kind: str) -> int:
    end = start
    while end < len(lines) and lines[end].kind == kind:
        end += 1
    return end - start


def _changed(a: str, b: str):
    """Word-level changed ranges of `a` and `b`; None when the lines have too little in common to pair."""
    ta, tb = _TOKEN.findall(a), _TOKEN.findall(b)
    matcher = difflib.SequenceMatcher(None, ta, tb, autojunk=False)
    if matcher.ratio() < 0.4:
        return None, None
    ranges_a, ranges_b = [], []
    for tag, a0, a1, b0, b1 in matcher.get_opcodes():
        if tag != "equal":
            ranges_a.append(_span(ta, a0, a1))
            ranges_b.append(_span(tb, b0, b1))
    return ranges_a, ranges_b


def _span(tokens: list[str], start: int, end: int) -> tuple[int, int]:
    offset = sum(len(t) for t in tokens[:start])
    return offset, offset + sum(len(t) for t in tokens[start:end])


def _diff_row(n: int, line: _DiffLine, marks: list[tuple[int, int]] | None) -> str:
    if line.kind in ("hunk", "note"):
        return f'<tr class="{line.kind}"><td colspan=4>{_e(line.text)}</td></tr>'
    sign = {"add": "+", "del": "-", "ctx": " "}[line.kind]
    return (
        f'<tr class="{line.kind}"><td class="ln">{line.old or ""}</td><td class="ln">{line.new or ""}</td>'
        f'<td class="sign">{sign}</td><td class="text">{_marked(line.text, marks or [])}</td></tr>'
    )


def _marked(text: str, marks: Iterable[tuple[int, int]]) -> str:
    out, at = [], 0
    for start, end in marks:
        if end > start:
            out.append(f"{_e(text[at:start])}<mark>{_e(text[start:end])}</mark>")
            at = end
    return "".join(out) + _e(text[at:])


# -- rules ---------------------------------------------------------------------------------------


def _rules(codes: list[str]) -> str:
    known = [RULES[c] for c in codes if c in RULES]
    if not known:
        return ""
    lede = (
        '<p class="lede">The documentation of every rule with a finding '
        "(<code>graphmend rules CODE</code> prints it).</p>"
    )
    return _section("rules", "Rules", lede + "".join(_rule(rule) for rule in known))


def _rule(rule) -> str:
    summary, _, rest = (inspect.getdoc(rule) or "").partition("\n\n")
    sections = []
    for heading, body in doc_sections(rest):
        if heading:
            sections.append(f"<h4>{_e(heading)}</h4>")
        if heading == "Example":
            sections.append(f"<pre><code>{_e(body)}</code></pre>")
        else:
            sections += [f"<p>{_inline(' '.join(p.split()))}</p>" for p in body.split("\n\n") if p.strip()]
    return (
        f'<article class="rule" id="rule-{_e(rule.CODE)}">'
        f"<h3><code>{_e(rule.CODE)}</code> {_e(rule.NAME)}</h3>"
        f'<p class="chips"><span class="chip">fix: {_e(rule.FIX)}</span>'
        f'<span class="chip">breaks: {_e(str(rule.BREAKS))}</span>'
        f'<span class="chip">targets: {_e(spelled(rule.BREAKS.targets))}</span>'
        f'<span class="chip">{"on" if rule.DEFAULT else "off"} by default</span></p>'
        f'<p class="lead">{_inline(" ".join(summary.split()))}</p>{"".join(sections)}</article>'
    )


# -- pieces --------------------------------------------------------------------------------------


def _e(text: object) -> str:
    # a POSIX file name that is not UTF-8 holds lone surrogates, which would make writing the page fail:
    # they become `\udcff` escapes (every other character encodes as it is)
    shown = str(text).encode("utf-8", "backslashreplace").decode("utf-8")
    return html.escape(shown, quote=True)


def _inline(text: str) -> str:
    """Escaped text with `backticked` spans as code (the escaping leaves backticks alone)."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", _e(text))


def _footer() -> str:
    return (
        f"<footer>graphmend {_e(_version())} · <code>graphmend report</code> · fixes shown here are applied "
        "by <code>graphmend fix</code>; nothing was written but this page.</footer></main>"
    )


def _section(key: str, title: str, content: str) -> str:
    return f'<section id="{key}"><h2><a href="#{key}">{title}</a></h2>{content}</section>\n'


_STYLE = """
:root{--fg:#1f2328;--muted:#59636e;--border:#d1d9e0;--subtle:#f6f8fa;--bg:#fff;--accent:#0969da;
--ok:#1a7f37;--ok-bg:#dafbe1;--warn:#9a6700;--warn-bg:#fff8c5;--bad:#cf222e;--bad-bg:#ffebe9;
--add-bg:#e6ffec;--add-ln:#ccffd8;--add-hl:#abf2bc;--del-bg:#ffebe9;--del-ln:#ffd7d5;--del-hl:#ffcecb;
--hunk-bg:#ddf4ff;--hunk-fg:#0550ae;
--sans:system-ui,-apple-system,"Segoe UI","Noto Sans","DejaVu Sans",Helvetica,Arial,sans-serif;
--mono:ui-monospace,SFMono-Regular,"SF Mono","DejaVu Sans Mono",Menlo,Consolas,monospace}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9198a1;--border:#3d444d;--subtle:#151b23;
--bg:#0d1117;--accent:#4493f8;--ok:#3fb950;--ok-bg:#12261e;--warn:#d29922;--warn-bg:#272115;--bad:#f85149;
--bad-bg:#25171c;--add-bg:#12261e;--add-ln:#1b4428;--add-hl:#1f6f3b;--del-bg:#25171c;--del-ln:#542426;
--del-hl:#792e2e;--hunk-bg:#121d2f;--hunk-fg:#79c0ff}}
*{box-sizing:border-box}
html{scroll-behavior:smooth}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.55 var(--sans);
-webkit-font-smoothing:antialiased}
a{color:var(--accent);text-decoration:none}a:hover{text-decoration:underline}
code,pre{font-family:var(--mono);font-size:.86em}
pre code{font-size:inherit}
:not(pre)>code{background:rgba(129,139,152,.14);border-radius:5px;padding:.1em .38em}
.wrap,main{max-width:1120px;margin:0 auto;padding:0 32px}
main{padding-bottom:64px}
header.top{background:var(--subtle);border-bottom:1px solid var(--border);padding:28px 0 24px;
margin-bottom:8px}
.brand{display:flex;align-items:center;gap:8px;font-weight:600;color:var(--muted);font-size:14px}
.logo{display:inline-grid;place-items:center;width:24px;height:24px;border-radius:6px;background:var(--fg);
color:var(--bg);font:700 12px/1 var(--mono)}
h1{font-size:28px;line-height:1.25;margin:10px 0 4px;font-weight:650;letter-spacing:-.01em}
h1 .root{font:500 .7em var(--mono);color:var(--muted);margin-left:.3em}
.meta{color:var(--muted);margin:0 0 20px;font-size:14px}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(140px,1fr));gap:12px}
.card{display:flex;flex-direction:column;background:var(--bg);border:1px solid var(--border);
border-radius:10px;
padding:12px 14px 10px;color:var(--fg);border-top:4px solid var(--border)}
.card:hover{text-decoration:none;border-color:var(--accent)}
.card.ok{border-top-color:var(--ok)}.card.warn{border-top-color:var(--warn)}
.card.bad{border-top-color:var(--bad)}
.card.zero{border-top-color:var(--border)}.card.zero .value{color:var(--muted)}
.card .value{font-size:28px;font-weight:650;line-height:1.1;font-variant-numeric:tabular-nums}
.card .label{font-weight:600;font-size:14px}
.card .note{color:var(--muted);font-size:12.5px;min-height:1.2em}
.card .note code{font-size:.92em;padding:0 .2em}
.steps{margin:18px 0 0;padding:0 0 0 20px;color:var(--fg)}
.steps li{margin:2px 0}
section{margin-top:40px}
h2{font-size:20px;font-weight:650;margin:0 0 12px;padding-bottom:8px;border-bottom:1px solid var(--border)}
h2 a{color:inherit}
h2 .count{font-size:13px;font-weight:600;background:var(--subtle);border:1px solid var(--border);
border-radius:999px;padding:1px 9px;vertical-align:middle;color:var(--muted)}
h3{font-size:16px;margin:0 0 8px;font-weight:600}
.lede{color:var(--muted);margin:-4px 0 14px}
.empty{color:var(--muted)}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;vertical-align:top;padding:7px 10px;border-bottom:1px solid var(--border)}
thead th{font-size:12.5px;font-weight:600;color:var(--muted);text-transform:uppercase;letter-spacing:.04em;
border-bottom:2px solid var(--border);white-space:nowrap}
thead th code{text-transform:none;letter-spacing:0}
.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.zero{color:var(--muted);opacity:.6}
table.summary td.n{font-weight:600;width:9%}
table.summary td.fixed:not(.zero){color:var(--ok)}
table.summary td.unsafe:not(.zero){color:var(--warn)}
table.summary td.manual:not(.zero){color:var(--bad)}
table.summary .rule{white-space:nowrap}table.summary .breaks{color:var(--muted);font-size:13.5px}
tfoot th,tfoot td{border-bottom:0;border-top:2px solid var(--border);font-weight:650}
.chip{display:inline-block;font-size:12px;border:1px solid var(--border);border-radius:999px;padding:0 8px;
color:var(--muted);background:var(--bg);margin:0 6px 4px 0;white-space:nowrap}
.badge{display:inline-block;font-size:12px;font-weight:600;border-radius:999px;padding:1px 8px;
white-space:nowrap}
.badge.ok{color:var(--ok);background:var(--ok-bg)}.badge.warn{color:var(--warn);background:var(--warn-bg)}
.badge.bad{color:var(--bad);background:var(--bad-bg)}
td.share{width:80px;min-width:60px}.bar{display:block;height:10px;border-radius:5px;background:var(--accent);min-width:2px}
.toolbar{display:flex;gap:16px;align-items:center;margin:0 0 14px;color:var(--muted);font-size:14px}
.toolbar[hidden]{display:none}
.toolbar select{font:inherit;padding:4px 8px;border:1px solid var(--border);border-radius:6px;background:var(--bg);
color:var(--fg)}
.toolbar input[type=search]{flex:0 1 320px;font:inherit;padding:5px 10px;border:1px solid var(--border);
border-radius:6px;background:var(--bg);color:var(--fg)}
details.file{border:1px solid var(--border);border-radius:10px;margin:0 0 16px;overflow:hidden}
details.file>summary{display:flex;gap:8px;align-items:center;flex-wrap:wrap;padding:10px 14px;
background:var(--subtle);cursor:pointer;list-style:none}
details.file>summary::-webkit-details-marker{display:none}
details.file>summary::before{content:"▸";color:var(--muted);width:12px}
details.file[open]>summary::before{content:"▾"}
details.file[open]>summary{border-bottom:1px solid var(--border)}
summary .path{font-weight:600;background:none;border:0;padding:0;font-size:14px;margin-right:auto}
.body{padding:0}
table.findings{table-layout:fixed}
table.findings td{border-bottom:1px solid var(--border);font-size:14px}
table.findings td.loc{width:72px}table.findings td.rule{width:72px}table.findings td.status{width:104px}
table.findings tr:last-child td{border-bottom:0}
table.findings .loc{white-space:nowrap;color:var(--muted)}
.errors .loc{width:1%;white-space:nowrap;color:var(--muted)}
table.findings .loc code,.errors .loc code{background:none;border:0;padding:0}
a.code{font:600 13px var(--mono)}
code.src,code.where{display:block;margin-top:6px;background:var(--subtle);border:1px solid var(--border);
border-radius:6px;padding:4px 8px;white-space:pre-wrap;word-break:break-word;color:var(--fg)}
code.where{color:var(--muted);font-size:12px;white-space:pre;overflow:hidden;text-overflow:ellipsis}
.clamp{display:-webkit-box;-webkit-box-orient:vertical;-webkit-line-clamp:2;overflow:hidden}
code.src mark{background:var(--warn-bg);color:inherit;border-bottom:2px solid var(--warn);padding:0}
.diff{overflow-x:auto;border-top:1px solid var(--border);font:12.5px/1.6 var(--mono)}
.findings+.diff{border-top:1px solid var(--border)}
.body>.diff:first-child{border-top:0}
.diff table{width:100%;font:inherit}
.diff td{border:0;padding:0 10px;white-space:pre;tab-size:4}
.diff td.ln{width:1%;min-width:44px;text-align:right;color:var(--muted);user-select:none;padding:0 8px;
opacity:.8}
.diff td.sign{width:1%;padding:0 2px 0 6px;user-select:none;color:var(--muted)}
.diff td.text{width:100%}
.diff tr.add{background:var(--add-bg)}.diff tr.add td.ln{background:var(--add-ln)}
.diff tr.del{background:var(--del-bg)}.diff tr.del td.ln{background:var(--del-ln)}
.diff tr.add td.sign{color:var(--ok)}.diff tr.del td.sign{color:var(--bad)}
.diff tr.add mark{background:var(--add-hl);color:inherit;border-radius:3px}
.diff tr.del mark{background:var(--del-hl);color:inherit;border-radius:3px}
.diff tr.hunk td{background:var(--hunk-bg);color:var(--hunk-fg);padding:3px 10px}
.diff tr.note td{color:var(--muted);font-style:italic}
details.clean{margin-top:8px;color:var(--muted)}details.clean summary{cursor:pointer}
details.clean ul{columns:2;margin:8px 0}
table.errors td{font-size:14px}
.verify{border:1px solid var(--border);border-radius:10px;padding:14px 16px;margin:0 0 16px}
.verify h3{display:flex;gap:10px;align-items:center}
.facts{margin:0 0 10px;padding:0 0 0 18px;color:var(--muted);font-size:13.5px}
.scroll{overflow-x:auto}
table.verdicts{font-size:13.5px;table-layout:fixed;min-width:760px}
table.verdicts th.check{width:92px}table.verdicts th.version{width:82px}table.verdicts th.result{width:84px}
table.verdicts th.num{width:118px}
table.verdicts th[scope]{font-family:var(--mono);font-weight:600;border-right:1px solid var(--border)}
table.verdicts tr:not(.last) td{border-bottom-style:dashed}
table.verdicts .problem{font-size:13px;color:var(--muted)}
.problem{color:var(--bad)}
article.rule{border-left:3px solid var(--border);padding:2px 0 2px 18px;margin:0 0 28px}
article.rule .chips{margin:0 0 8px}
article.rule .lead{font-weight:500;margin:0 0 6px}
article.rule h4{font-size:12.5px;text-transform:uppercase;letter-spacing:.04em;color:var(--muted);
margin:14px 0 4px}
article.rule p{margin:0 0 8px;max-width:80ch}
pre{background:var(--subtle);border:1px solid var(--border);border-radius:8px;padding:10px 14px;
overflow-x:auto;
line-height:1.5;margin:0}
footer{color:var(--muted);font-size:13px;margin-top:48px;padding-top:12px;border-top:1px solid var(--border)}
@media print{.toolbar{display:none}details.file>summary::before{content:""}}
"""

# Progressive enhancement: without it every file is shown.
_SCRIPT = """
(function(){
  var bar=document.querySelector('.toolbar'); if(!bar) return; bar.hidden=false;
  var text=document.getElementById('filter'), open=document.getElementById('open-only'),
      rule=document.getElementById('rule-filter'), fix=document.getElementById('fix-filter');
  // a filtered view can be shared: #rule=GM101&fix=unsafe&path=models
  var said=new URLSearchParams(location.hash.slice(1));
  if(said.get('rule')) rule.value=said.get('rule');
  if(said.get('fix')) fix.value=said.get('fix');
  if(said.get('path')) text.value=said.get('path');
  function apply(){
    var q=text.value.toLowerCase(), r=rule.value, x=fix.value;
    document.querySelectorAll('details.file').forEach(function(f){
      var shown=0;
      f.querySelectorAll('tr.finding').forEach(function(row){
        var hit=(!r || row.dataset.code===r) && (!x || row.dataset.status===x);
        row.hidden=!hit; if(hit) shown++;
      });
      var hit=f.dataset.path.toLowerCase().indexOf(q)>=0 && (!open.checked || f.dataset.left==='yes')
              && (!(r || x) || shown>0);
      f.style.display=hit?'':'none';
    });
    var state=new URLSearchParams();
    if(r) state.set('rule',r); if(x) state.set('fix',x); if(text.value) state.set('path',text.value);
    var hash=state.toString();
    if(hash || location.hash) history.replaceState(null,'',hash?'#'+hash:location.pathname);
  }
  [text,open,rule,fix].forEach(function(el){el.addEventListener(el===text?'input':'change',apply);});
  apply();
})();
"""
