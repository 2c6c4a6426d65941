"""From a MindSpore error to the finding that explains it: `graphmend explain [LOG]`.

    errors = parse_log(text)                       # every error of a traceback or a whole training log
    explanations = explain(errors, Options())      # the rules run on the user's files, as `check` runs them

A log is read as text: ANSI colours are dropped, and whatever surrounds the errors (progress lines, the
C++ call stack, Chinese or English locale text) is skipped. For each error the user's line comes from
"The Traceback of Net Construct Code" (`# 0 In file model.py:14, 8~27`, and STRICT's `In file ...` line),
else from the Python frames. The rules run on that file (the session of `check`: its config, selection
and per-file ignores; every target, since the error shows which configuration was in play), and the
finding nearest that line whose rule declares a matching message (a rule's `EXPLAINS`,
graphmend.messages) explains the error. An error no rule explains is matched against what MindSpore 2.10
printed for the rows of its documented static-graph limits (codemods/documented_limits.json, written by
`make limits` from docs/limits.md), and that row is quoted. Nothing here imports MindSpore or runs the
code it reads.
"""

from __future__ import annotations

import ast
import functools
import importlib.resources
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from difflib import SequenceMatcher
from pathlib import Path

import libcst as cst

from graphmend import config as configuration
from graphmend import engine
from graphmend import session as sessions
from graphmend.files import FileResult, WriteError, write_atomic
from graphmend.finding import Finding
from graphmend.messages import collapse
from graphmend.rules import RULES
from graphmend.targets import ALL


@dataclass(frozen=True)
class Frame:
    """Where an error points: a file and its line (a range for a statement spanning lines)."""

    path: str
    line: int
    end_line: int
    # "construct" (MindSpore's own traceback of the graph), "python" (a Python frame), or "import": a
    # module of the user's that the file of a Python frame imports (`via`), where the Cell may live
    source: str
    via: str = ""


@dataclass(frozen=True)
class Error:
    """One error found in a log."""

    kind: str  # the exception class: RuntimeError, TypeError, ...
    headline: str  # its first line that says something
    text: str  # the whole block: message, MindSpore's sections, frames
    frames: tuple[Frame, ...]  # innermost first; construct frames before Python ones
    analyze_fail: str | None = None  # MindSpore's pointer to analyze_fail.ir, when it gave one
    line_number: int = 0  # where the error starts in the log (1-based)


@dataclass
class Explanation:
    error: Error
    frame: Frame | None = None  # the user frame that was looked at (None: no user file found)
    finding: Finding | None = None
    diff: str = ""  # the fixes of `finding` and `also` as one unified diff
    user_line: str = ""  # the source line the error points at
    why_not: str = ""  # when unexplained: why
    fixed: bool = False
    # more findings of the same rule on the error's line (MindSpore stops at the first; the next would fail)
    also: tuple[Finding, ...] = ()
    documented: dict | None = None  # when unexplained: the documented limit that raised this error on 2.10

    @property
    def findings(self) -> tuple[Finding, ...]:
        return () if self.finding is None else (self.finding, *self.also)

    @property
    def explained(self) -> bool:
        return self.finding is not None


class BadLog(ValueError):
    """The input is not a log graphmend can read (no error in it, or not text)."""


# -- reading a log ---------------------------------------------------------------------------------------

ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07")
HEADER = re.compile(r"^((?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*(?:Error|Exception)): ?(.*)$")
TRACEBACK = "Traceback (most recent call last):"
PY_FRAME = re.compile(r'^\s*File "(.+)", line (\d+), in ')
AT_FRAME = re.compile(r"^\s+(/\S+|\S+\.py)\((\d+)\): \S+$")  # MindSpore's `At:` list in its [ERROR] log
CONSTRUCT = re.compile(r"^(?:#\s*\d*\s*)?In file (.+?):(\d+)(?:~(\d+))?, \d+~\d+")
ANALYZE_FAIL = re.compile(r"See file '([^']*analyze_fail\.ir)'")
# a line that starts something else: another record of a logger, a new traceback, an exception chain
LOG_RECORD = re.compile(r"^(\[(?:DEBUG|INFO|WARNING|ERROR|CRITICAL)\]|\d{4}-\d\d-\d\d[ T]\d\d:\d\d|During handling "
                        r"of the above exception|The above exception was the direct cause)")  # fmt: skip


def parse_log(text: str) -> list[Error]:
    """Every error in `text`, in order; the same error logged twice in a row (MindSpore's [ERROR] record,
    then the traceback) is one error."""
    lines = ANSI.sub("", text).replace("\r\n", "\n").replace("\r", "\n").split("\n")
    errors: list[Error] = []
    python: list[Frame] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.startswith(TRACEBACK):
            python = []
        elif found := PY_FRAME.match(line):
            python.append(Frame(found[1], int(found[2]), int(found[2]), "python"))
        elif header := HEADER.match(line):
            end = _block_end(lines, index + 1)
            errors.append(_error(header, lines[index:end], python, index + 1))
            python = []
            index = end
            continue
        index += 1
    merged: list[Error] = []
    for error in errors:
        if merged and merged[-1].kind == error.kind and merged[-1].headline == error.headline:
            merged[-1] = _merge(merged[-1], error)
        else:
            merged.append(error)
    return merged


def _merge(first: Error, second: Error) -> Error:
    """One error logged twice in a row: MindSpore's [ERROR] record (with the graph's frames), then the
    Python traceback (with the script's)."""
    frames = [f for e in (first, second) for f in e.frames if f.source == "construct"]
    frames += [f for e in (first, second) for f in e.frames if f.source != "construct"]
    return replace(first, text=first.text + "\n" + second.text, frames=tuple(dict.fromkeys(frames)),
                   analyze_fail=first.analyze_fail or second.analyze_fail)  # fmt: skip


def _block_end(lines: list[str], start: int) -> int:
    """Where the block of an error that begins before `start` ends: after MindSpore's analyze_fail.ir
    pointer, before the next error or log record, or at two blank lines."""
    index = start
    while index < len(lines):
        line = lines[index]
        if ANALYZE_FAIL.search(line):
            return index + 1
        if line.startswith(TRACEBACK) or HEADER.match(line) or LOG_RECORD.match(line):
            return index
        if not line.strip() and index + 1 < len(lines) and not lines[index + 1].strip():
            following = next((later.strip() for later in lines[index:] if later.strip()), "")
            if not (CONSTRUCT.match(following) or set(following) == {"-"}):  # MindSpore's sections go on
                return index
        index += 1
    return index


def _error(header: re.Match[str], block: list[str], python: list[Frame], number: int) -> Error:
    construct, at, numbered = [], [], False
    for line in block:
        if found := CONSTRUCT.match(line.strip()):
            first = int(found[2])
            construct.append(Frame(found[1], first, int(found[3] or first), "construct"))
            numbered = numbered or bool(re.match(r"#\s*\d", line.strip()))
        elif found := AT_FRAME.match(line):
            at.append(Frame(found[1], int(found[2]), int(found[2]), "python"))
    pointer = next((m[1] for line in block if (m := ANALYZE_FAIL.search(line))), None)
    says = [header[2].strip(), *(line.strip() for line in block[1:])]
    headline = next((line for line in says if _says_something(line)), "")
    if not numbered:  # `# In file` without numbers (a statement MindSpore refuses) lists the outermost first
        construct.reverse()
    frames = [*construct, *reversed(python), *reversed(at)]  # innermost first
    return Error(header[1], headline, "\n".join(block), tuple(dict.fromkeys(frames)), pointer, number)


def _says_something(line: str) -> bool:
    return bool(line) and set(line) != {"-"} and not (line.startswith("- ") and line.endswith(":"))


# -- explaining ------------------------------------------------------------------------------------------


def explain(errors: Sequence[Error], options: sessions.Options, root: Path | None = None) -> list[Explanation]:
    """Each error with the finding that explains it, or why none does."""
    root = (root or Path.cwd()).resolve()
    located = [(error, _user_frames(error, root)) for error in errors]
    files = sorted({frame.path for _, frames in located for frame in frames})
    results = _check(files, options, root)
    out = []
    for error, frames in located:
        out.append(_explain_one(error, frames, results, root))
    return out


def _user_frames(error: Error, root: Path) -> list[Frame]:
    """The error's frames in the user's files (not MindSpore's, not the standard library's), with their
    paths as found on this machine: as written, else the longest tail of the path that exists under
    `root` (a log from another machine or container)."""
    frames, imported = [], []
    for frame in error.frames:
        if _library(frame.path):
            continue
        path = _locate(frame.path, root)
        if path is not None:
            frames.append(replace(frame, path=path))
            if frame.source == "python":
                via = f"{path}:{frame.line}"
                imported += [Frame(module, 1, 1, "import", via) for module in _local_imports(root / path, root)]
    return [*frames, *imported]


def _local_imports(path: Path, root: Path) -> list[str]:
    """The user's own modules `path` imports (found next to it or under `root`; never the libraries').

    MindSpore names no line of graph code for some errors (a dynamic shape that fails at run time): then
    the Python frames name only the script that called the Cell, and the Cell is in a module it imports."""
    try:
        tree = ast.parse(path.read_bytes())
    except (OSError, SyntaxError, ValueError):
        return []
    names: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [(0, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            names += [(node.level, base), *((node.level, f"{base}.{a.name}".strip(".")) for a in node.names)]
    found: list[str] = []
    for level, dotted in names:
        bases = [path.parent.joinpath(*[".."] * (level - 1))] if level else [path.parent, root]
        for base in bases:
            for candidate in (base.joinpath(*dotted.split(".")).with_suffix(".py"),
                              base.joinpath(*dotted.split("."), "__init__.py")):  # fmt: skip
                if dotted and candidate.is_file() and not _library(str(candidate)):
                    shown = _shown(candidate.resolve(), root)
                    if shown not in found and shown != _shown(path.resolve(), root):
                        found.append(shown)
    return found


def _library(path: str) -> bool:
    parts = Path(path).parts
    return path.startswith("<") or "site-packages" in parts or "dist-packages" in parts or not path.endswith(".py")


def _locate(path: str, root: Path) -> str | None:
    candidate = Path(path)
    if candidate.is_absolute() and candidate.is_file():
        return _shown(candidate.resolve(), root)
    parts = candidate.parts[1:] if candidate.is_absolute() else candidate.parts
    for start in range(len(parts)):
        tail = root.joinpath(*parts[start:])
        if tail.is_file():
            return _shown(tail.resolve(), root)
    return None


def _shown(path: Path, root: Path) -> str:
    try:
        return str(path.relative_to(root))
    except ValueError:
        return str(path)


def _check(files: Sequence[str], options: sessions.Options, root: Path) -> dict[str, FileResult]:
    if not files:
        return {}
    # the error shows which configuration was in play: every target's findings may explain it
    options = replace(options, target=ALL, jobs=1)
    given = {str(root / f): f for f in files}  # the session reads them wherever the caller runs
    session = sessions.open_session([Path(f) for f in given], options, fix=False)
    outcome = sessions.run(session)
    return {given.get(r.path, r.path): _relative(r, given.get(r.path, r.path)) for r in outcome.results}


def _relative(result: FileResult, shown: str) -> FileResult:
    findings = tuple(replace(f, path=shown) for f in result.findings)
    return replace(result, path=shown, findings=findings)


def _explain_one(error: Error, frames: list[Frame], results: dict[str, FileResult], root: Path) -> Explanation:
    codes = {code for code, rule in RULES.items() if any(m.matches(error.text) for m in rule.EXPLAINS)}
    subjects = {s for code in codes for m in RULES[code].EXPLAINS if (s := m.subject(error.text))}
    if not frames:
        return Explanation(error, why_not="no frame of the error is in a file found here")
    for frame in frames:
        result = results.get(frame.path)
        if result is None or result.error is not None:
            continue
        candidates = [f for f in result.findings if f.code in codes]
        about = [f for f in candidates if any(f"`{name}`" in f.message for name in subjects)]
        candidates = about or candidates
        if candidates:
            best = min(candidates, key=lambda f: (_distance(f, frame), f.line, f.column))
            also = tuple(f for f in candidates if f is not best and f.code == best.code and f.line == best.line)
            diff = _diff(root, frame.path, (best, *also))
            return Explanation(error, frame, best, diff, _line(root, frame), also=also)
    first = frames[0]
    if not codes:
        why = "no rule declares this message"
    else:
        why = f"{', '.join(sorted(codes))} declare{'s' if len(codes) == 1 else ''} this message, but found nothing " \
              f"in {', '.join(dict.fromkeys(f.path for f in frames))}"  # fmt: skip
    return Explanation(error, first, user_line=_line(root, first), why_not=why, documented=documented(error))


def documented(error: Error) -> dict | None:
    """The row of MindSpore's documented limits whose case raised this error on 2.10 (numbers and shapes
    aside: `got tensor shape is (2, 4)` matches `(-1, 4)`), or None."""
    said = _comparable(f"{error.kind}: {error.headline}")
    best, found = 0.0, None
    for row in _documented_rows():
        for measured in row["errors"]:
            ratio = SequenceMatcher(None, said, _comparable(measured), autojunk=False).ratio()
            if ratio > best:
                best, found = ratio, row
    return found if best >= 0.95 else None  # `Unsupported statement 'With'` is not row 1's `'Try'`


@functools.cache
def _documented_rows() -> list[dict]:
    text = importlib.resources.files("graphmend").joinpath("documented_limits.json").read_text(encoding="utf-8")
    return json.loads(text)["rows"]


def _comparable(message: str) -> str:
    return re.sub(r"-?\d+", "0", collapse(message))[:200]


def _distance(finding: Finding, frame: Frame) -> int:
    if frame.line <= finding.line <= frame.end_line or finding.line <= frame.line <= finding.end_line:
        return 0
    return min(abs(finding.line - frame.line), abs(finding.line - frame.end_line))


def _line(root: Path, frame: Frame) -> str:
    try:
        lines = (root / frame.path).read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return ""
    return lines[frame.line - 1].strip() if 0 < frame.line <= len(lines) else ""


def _diff(root: Path, path: str, findings: Sequence[Finding]) -> str:
    if not any(f.edits for f in findings):
        return ""
    before = (root / path).read_text(encoding="utf-8")
    after = _fixed(before, path, list(findings))
    return FileResult(path, original=before.encode("utf-8"), output=after.encode("utf-8")).diff()


# -- fixing ----------------------------------------------------------------------------------------------


@dataclass
class Applied:
    written: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)


def apply_fixes(explanations: Sequence[Explanation], unsafe: bool, root: Path | None = None) -> Applied:
    """Write the fixes of the explained findings (safe ones; unsafe too with `unsafe`), one file at a time,
    atomically. Fixes of one file are applied one after the other, each found again on the text the one
    before left (an import two fixes add is added once); a result that does not parse is not written."""
    by_file: dict[str, list[Explanation]] = {}
    applied = Applied()
    for item in explanations:
        if any(_applies(f, unsafe) for f in item.findings):
            path = item.finding.path  # type: ignore[union-attr]
            if Path(path).is_absolute():  # shown relative when under the root (_shown)
                applied.failed.append(f"{path}: outside {root or '.'}; not edited (--root)")
                continue
            by_file.setdefault(path, []).append(item)
    root = (root or Path.cwd()).resolve()
    for path, items in by_file.items():
        try:
            original = (root / path).read_bytes()
            wanted = [f for item in items for f in item.findings if _applies(f, unsafe)]
            output = _fixed(original.decode("utf-8"), path, wanted)
            engine.parse(output)
            write_atomic(root / path, output.encode("utf-8"), original)
        except (OSError, UnicodeDecodeError, WriteError) as exc:
            applied.failed.append(f"{path}: not written: {exc}")
            continue
        except cst.ParserSyntaxError as exc:
            applied.failed.append(f"{path}: the fixed file would not parse ({exc}); not written")
            continue
        applied.written.append(path)
        for item in items:
            item.fixed = True
    return applied


def unsafe_setting(options: sessions.Options, root: Path | None = None) -> bool:
    """`--unsafe-fixes` / `--no-unsafe-fixes`, else the config's `unsafe-fixes` (as `check` reads it)."""
    if options.unsafe is not None:
        return options.unsafe
    return configuration.load([root or Path.cwd()], options.config).unsafe_fixes


def _applies(finding: Finding, unsafe: bool) -> bool:
    return bool(finding.edits) and (finding.fix == "safe" or (finding.fix == "unsafe" and unsafe))


def _fixed(text: str, path: str, wanted: list[Finding]) -> str:
    unique = sorted({(f.line, f.column, f.code): f for f in wanted}.values(), key=lambda f: (f.line, f.column))
    for index, want in enumerate(unique):
        found = want
        if index:  # the text changed: find the same finding again
            again = [f for f in engine.check(text, path, [RULES[want.code]]) if f.original == want.original]
            if not again:
                continue
            found = min(again, key=lambda f: abs(f.line - want.line))
        text = engine.apply_edits(text, found.edits)
    return text


# -- output ----------------------------------------------------------------------------------------------

WHERE = {"construct": "The Traceback of Net Construct Code", "python": "a Python frame", "import": "imported"}


def render_text(explanations: Sequence[Explanation], unsafe: bool) -> str:
    """Per error: its first line, where it points, then `check`'s line for the finding and its fix as a
    diff, or why nothing explains it and the user's line."""
    from graphmend.output.formats import printable, text

    out = []
    total = len(explanations)
    for number, item in enumerate(explanations, 1):
        error = item.error
        out.append(f"error {number} of {total} (log line {error.line_number}): "
                   f"{printable(_short(error.kind + ': ' + error.headline))}\n")  # fmt: skip
        if item.frame is not None:
            frame = item.frame
            where = f"{frame.path}" if frame.source == "import" else f"{frame.path}:{frame.line}"
            how = f"imported by {frame.via}" if frame.via else WHERE[frame.source]
            out.append(f"  at {printable(where)} ({printable(how)})\n")
        if item.finding is not None:
            out.append(text(item.findings, unsafe))
            if item.diff:
                out.append(item.diff if item.diff.endswith("\n") else item.diff + "\n")
            if item.fixed:
                out.append("  fixed\n")
        else:
            out.append(f"  not explained: {printable(item.why_not)}\n")
            if item.user_line:
                out.append(f"  {item.frame.line} | {printable(item.user_line)}\n")  # type: ignore[union-attr]
            if item.documented:
                row = item.documented
                out.append(f"  documented: MindSpore's static-graph limits, row {row['row']}: "
                           f"{printable(row['construct'])}"
                           f"\n    measured on MindSpore 2.10: {printable(row['measured'])}"
                           f"\n    graphmend: {printable(row['graphmend'])} (docs/limits.md)\n")  # fmt: skip
        out.append("\n")
    return "".join(out)


def summary(explanations: Sequence[Explanation], applied: Applied | None = None) -> str:
    explained = sum(item.explained for item in explanations)
    line = f"{len(explanations)} error(s): {explained} explained, {len(explanations) - explained} not explained"
    if applied is not None:
        fixed = sum(item.fixed for item in explanations)
        line += f"; fixed {fixed} in {len(applied.written)} file(s)"
    return line + "."


def as_json(explanations: Sequence[Explanation], applied: Applied | None = None) -> str:
    from graphmend.output.formats import _dumps, _json_finding

    items = []
    for item in explanations:
        frame = item.frame
        items.append({
            "error": {"type": item.error.kind, "message": item.error.headline, "log_line": item.error.line_number,
                      "analyze_fail": item.error.analyze_fail},
            "location": None if frame is None else {"filename": frame.path, "row": frame.line,
                                                    "end_row": frame.end_line, "from": frame.source},
            "explained": item.explained,
            "finding": None if item.finding is None else _json_finding(item.finding),
            "also": [_json_finding(f) for f in item.also],
            "diff": item.diff or None,
            "fixed": item.fixed,
            "why_not": item.why_not or None,
            "user_line": item.user_line or None,
            "documented": item.documented,
        })  # fmt: skip
    return _dumps({"errors": items, "failed": applied.failed if applied else []})


def _short(text: str, limit: int = 240) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
