"""`graphmend server`: a language server over stdio, with `check`'s findings and `fix`'s fixes in the editor.

Built on pygls (the LSP plumbing: JSON-RPC, document sync, position encodings) and lsprotocol (the types).
What it offers:
- diagnostics for the buffer's text, not the file on disk, on open, save and (debounced) change: the findings
  `graphmend check` reports for the same text under the same config (nearest pyproject.toml's
  [tool.graphmend], select / ignore / per-file-ignores / exclude, suppression comments);
- code actions: each finding's fix (unsafe ones labelled so), `source.fixAll.graphmend`, and "ignore this
  rule on this line"; every edit is the difference between the buffer and what graphmend produces from it,
  so it carries the imports a fix adds;
- hover on a finding: the rule's page, as `graphmend rules CODE` prints it.

Like `check`, nothing here imports MindSpore or runs the code it reads. Analysis runs on one worker thread,
so the server keeps answering while a large file is analysed; a result for a version of the buffer the
editor has moved past is dropped.
"""

from __future__ import annotations

import asyncio
import functools
import gc
import inspect
import io
import os
import tokenize
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, TypeVar

from lsprotocol import types as lsp
from pygls.capabilities import get_capability
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path
from pygls.workspace import PositionCodec

from graphmend import config, engine
from graphmend.files import FileError, FileResult
from graphmend.finding import Finding
from graphmend.incremental import Reparser
from graphmend.output.formats import printable
from graphmend.rules import RULES, UnknownRule, doc_sections, rule_page, select_rules
from graphmend.runner import Task, run_task
from graphmend.suppressions import UNUSED_CODE, add_ignore, physical_lines
from graphmend.targets import DEFAULT as DEFAULT_TARGET
from graphmend.targets import spelled

# After the last change: a burst of keystrokes (fast typing, a key held down, an edit the editor makes in
# steps) is analysed once. Short, because what the editor waits for is this plus the analysis (ruff's server
# does not wait at all, but its analysis takes milliseconds). A change that comes while a diagnosis waits
# replaces it; one running is not stopped, but its result is dropped, so typing on at a key every 0.15 s or
# more in a large file costs one analysis of an older version more before the newest one's.
DEBOUNCE_SECONDS = 0.15
FIX_ALL = "source.fixAll.graphmend"
SOURCE = "graphmend"
README = Path(__file__).resolve().parent.parent / "README.md"

T = TypeVar("T")


def main() -> None:
    server.start_io()


def rule_url(code: str) -> str | None:
    """Where the editor links a finding's code to: the one place to change when rules get a site of their own.

    The rules section of the README of this installation (a checkout or an editable install has one);
    no link rather than a dead one when it is missing.
    """
    page = _readme()
    return f"{page}#the-rules" if page and code in RULES else None


@functools.cache
def _readme() -> str | None:
    return README.as_uri() if README.is_file() else None


# -- one buffer ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Buffer:
    """A document's text at one version, and what `check` would run on it."""

    uri: str
    version: int | None
    text: str
    path: str  # the file's path (the URI for an unsaved buffer): config lookup and messages
    codes: tuple[str, ...] = ()  # the rules `check` runs on this file
    unsafe_fixes: bool = False  # the config's unsafe-fixes: what fixAll applies, like `graphmend fix`
    max_bytes: int = 4_000_000
    excluded: bool = False  # `exclude` in the config: `check` skips the file, so the server does too
    config_error: str | None = None  # `check` stops with it: the server shows it instead of findings
    config_warnings: tuple[str, ...] = ()  # `check` prints them and goes on (an unknown key): so does the server

    @functools.cached_property
    def encoded(self) -> tuple[bytes, str]:
        return _encode(self.text)

    @property
    def data(self) -> bytes:
        return self.encoded[0]

    @functools.cached_property
    def lines(self) -> list[str]:
        return physical_lines(self.text)

    def decode(self, output: bytes) -> str:
        return output.decode(self.encoded[1])


def check_buffer(buffer: Buffer) -> FileResult:
    """What `graphmend check` reports for this text (the runner's own path: pre-filter, size limit, parse)."""
    if buffer.excluded or buffer.config_error:
        return FileResult(buffer.path)
    return _run(buffer.path, buffer.data, buffer.codes, False, False, buffer.max_bytes)


def fix_all(buffer: Buffer) -> str | None:
    """The text `graphmend fix` would write for this buffer, or None when it cannot fix it."""
    result = _run(buffer.path, buffer.data, buffer.codes, True, buffer.unsafe_fixes, buffer.max_bytes)
    return buffer.decode(result.output) if result.output is not None and not result.error else None


def fix_one(buffer: Buffer, key: tuple, unsafe: bool) -> str | None:
    """The text with the one fix of the finding at `key` applied (and the imports it needs)."""
    rules = [RULES[code] for code in buffer.codes]
    found = engine.candidates(buffer.data, buffer.path, rules, unsafe, only=lambda f: _key(f) == key)
    return buffer.decode(found[0][1]) if found else None  # type: ignore[arg-type]


def ignore_one(buffer: Buffer, key: tuple) -> str | None:
    """The text with a suppression of the finding at `key` added to (or merged into) its line's comment."""
    finding = next((f for f in check_buffer(buffer).findings if _key(f) == key), None)
    return add_ignore(buffer.text, finding) if finding is not None else None


# Results by content: the code actions that follow a diagnosis ask about the same text.
@functools.lru_cache(maxsize=8)
def _run(path: str, data: bytes, codes: tuple[str, ...], fix: bool, unsafe: bool, max_bytes: int) -> FileResult:
    # a check parses (and prints, for positions) only the statements an edit touched since the file's last
    # check: the same tree and positions
    incremental = None if fix else REPARSERS.setdefault(path, Reparser())
    return run_task(Task(path, data, codes, fix, unsafe, max_bytes), incremental)


# The last version of each open document checked, by path, for the next check to reuse (analysis thread only).
REPARSERS: dict[str, Reparser] = {}


def _key(finding: Finding) -> tuple:
    return (finding.code, finding.line, finding.column, finding.end_line, finding.end_column)


def _encode(text: str) -> tuple[bytes, str]:
    """The buffer as the bytes its file would hold: a coding cookie (`# -*- coding: gbk -*-`) is honoured."""
    utf8 = text.encode("utf-8", errors="surrogatepass")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(utf8).readline)
    except SyntaxError:  # an unknown cookie: the parser reports it
        return utf8, "utf-8"
    if encoding.startswith("utf-8"):
        return utf8, "utf-8"
    try:
        return text.encode(encoding), encoding
    except UnicodeEncodeError:  # not representable as declared: the decoder reports where
        return utf8, "utf-8"


# -- LSP shapes ------------------------------------------------------------------------------------


def diagnostics(result: FileResult, lines: list[str], codec: PositionCodec) -> list[lsp.Diagnostic]:
    if result.error is not None:
        return [_error_diagnostic(result.error, lines, codec)]
    return [finding_diagnostic(f, lines, codec) for f in result.findings]


def finding_diagnostic(finding: Finding, lines: list[str], codec: PositionCodec) -> lsp.Diagnostic:
    href = rule_url(finding.code)
    return lsp.Diagnostic(
        range=_range(lines, codec, finding.line, finding.column, finding.end_line, finding.end_column),
        message=printable(finding.message),  # it quotes the code: a bidi override there must show, not act
        severity=lsp.DiagnosticSeverity.Warning,
        code=finding.code,
        code_description=lsp.CodeDescription(href=href) if href else None,
        source=SOURCE,
        tags=[lsp.DiagnosticTag.Unnecessary] if finding.code == UNUSED_CODE else None,  # the editor greys it
    )


def _error_diagnostic(error: FileError, lines: list[str], codec: PositionCodec) -> lsp.Diagnostic:
    """A buffer graphmend cannot read (a syntax error, mostly): one diagnostic, so stale findings go."""
    line, column = error.line or 1, error.column or 1
    return lsp.Diagnostic(
        range=_range(lines, codec, line, column, line, column + 1),
        message=printable(error.message),
        severity=lsp.DiagnosticSeverity.Error,
        source=SOURCE,
    )


def config_diagnostics(buffer: Buffer) -> list[lsp.Diagnostic]:
    """What is wrong with the file's [tool.graphmend], at the top of the file (the config has no buffer)."""
    origin = lsp.Position(line=0, character=0)
    errors = [buffer.config_error] if buffer.config_error else []
    return [lsp.Diagnostic(range=lsp.Range(start=origin, end=origin), message=printable(message), severity=severity,
                           source=SOURCE)
            for messages, severity in [(errors, lsp.DiagnosticSeverity.Error),
                                       (buffer.config_warnings, lsp.DiagnosticSeverity.Warning)]
            for message in messages]  # fmt: skip


def _range(lines: list[str], codec: PositionCodec, line: int, column: int, end_line: int, end_column: int):
    """1-based line and code-point columns (graphmend's) → an LSP range in the client's position encoding."""
    return lsp.Range(start=_position(lines, codec, line - 1, column - 1),
                     end=_position(lines, codec, end_line - 1, end_column - 1))  # fmt: skip


def _position(lines: list[str], codec: PositionCodec, line: int, character: int) -> lsp.Position:
    if line >= len(lines):  # past the end: the end of the last line
        line, character = max(len(lines) - 1, 0), len(lines[-1]) if lines else 0
    text = lines[line].rstrip("\r\n") if lines else ""
    return lsp.Position(line=line, character=codec.client_num_units(text[: max(character, 0)]))


def text_edits(old: str, new: str, codec: PositionCodec) -> list[lsp.TextEdit]:
    """The changed lines of `new` against `old`, as edits on `old` (applied together, they give `new`)."""
    lines = physical_lines(old)
    return [
        lsp.TextEdit(range=lsp.Range(start=_edit_position(lines, e.line, e.column, codec),
                                     end=_edit_position(lines, e.end_line, e.end_column, codec)),
                     new_text=e.content)
        for e in engine.line_edits(old, new)
    ]  # fmt: skip


def _edit_position(lines: list[str], line: int, column: int, codec: PositionCodec) -> lsp.Position:
    """An engine position (1-based, code points) as LSP's (0-based, the client's units)."""
    text = lines[line - 1] if line <= len(lines) else ""
    return lsp.Position(line=line - 1, character=codec.client_num_units(text[: column - 1]))


def hover_page(code: str, markdown: bool) -> str:
    """The rule's page: as `graphmend rules CODE` prints it, or in Markdown with its sections as headings and
    its example as Python (the HTML report's layout)."""
    rule = RULES[code]
    if not markdown:
        return rule_page(rule)
    summary, _, rest = (inspect.getdoc(rule) or "").partition("\n\n")
    parts = [f"**{rule.CODE} {rule.NAME}** ({'on' if rule.DEFAULT else 'off'} by default)", _flow(summary)]
    for heading, body in doc_sections(rest):
        if heading:
            parts.append(f"**{heading}**")
        if heading == "Example":
            parts.append(f"```python\n{body}\n```")
        else:
            parts += [_flow(paragraph) for paragraph in body.split("\n\n") if paragraph.strip()]
    parts.append(f"Breaks: {rule.BREAKS}  \nReported for targets: {spelled(rule.BREAKS.targets)}  \nFix: {rule.FIX}")
    return "\n\n".join(parts)


def _flow(paragraph: str) -> str:
    # one line: an indented continuation line would be a code block in Markdown
    return " ".join(paragraph.split())


def _overlaps(finding: Finding, start: tuple[int, int], end: tuple[int, int]) -> bool:
    """Whether the finding's span touches [start, end] (0-based line, code-point column pairs)."""
    first, last = (finding.line - 1, finding.column - 1), (finding.end_line - 1, finding.end_column - 1)
    return first <= end and start <= last


def _wanted(kind: str, only: Sequence[str] | None) -> bool:
    """`only` as the LSP defines it: a kind is wanted when it is one of them or a sub-kind of one."""
    return only is None or any(kind == k or kind.startswith(f"{k}.") for k in only)


def _short(text: str | None, limit: int = 50) -> str:
    one_line = printable(" ".join((text or "").split()))
    return one_line if len(one_line) <= limit else one_line[: limit - 1] + "…"


# -- the server ------------------------------------------------------------------------------------


@dataclass
class Published:
    """The findings last shown for a document, for hover: what the user sees underlined."""

    lines: list[str]
    findings: tuple[Finding, ...]


class GraphmendServer(LanguageServer):
    def __init__(self) -> None:
        # Full sync: the editor sends the whole text on each change. pygls applies incremental changes on
        # str.splitlines() lines, which also break at form feeds and U+2028, so an edit below one would
        # land on the wrong line of our copy; a few hundred kB per change cost nothing next to the analysis.
        super().__init__(SOURCE, _version(), text_document_sync_kind=lsp.TextDocumentSyncKind.Full)
        self.pending: dict[str, asyncio.Task] = {}  # the diagnosis waiting (debounced) or running, per document
        self.published: dict[str, Published] = {}
        self.settings_cache: dict[tuple, config.Settings | str] = {}
        self.pool = ThreadPoolExecutor(1, thread_name_prefix="graphmend-analysis")
        self.frozen = False  # whether the objects alive after the first analysis are out of the collector's way

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        """`function` on the analysis thread: one analysis at a time, and the event loop stays free.

        The cyclic garbage collector does not run during it: libcst's scope objects hold the whole tree in
        reference cycles, so collections kept starting while the tree was built and walked (a fifth of the
        analysis of a large file). The garbage is collected once, on the analysis thread, after what the
        caller does next without waiting (publishing the diagnostics): off the time the editor waits."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self.pool, _without_collector, function, *args)
        finally:
            loop.call_soon(self._collect_soon)  # after the rest of the caller's step: the publish first

    def _collect_soon(self) -> None:
        try:
            self.pool.submit(self._collect)
        except RuntimeError:  # shut down: nothing more to analyse
            gc.enable()

    def _collect(self) -> None:
        """On the analysis thread, between analyses: the garbage of the last one, then the collector back on.
        The first time, what survives it (the modules, classes and rules the server keeps for its life) is
        frozen, so later collections do not walk it again."""
        gc.collect()
        if not self.frozen:
            gc.freeze()
            self.frozen = True
        gc.enable()

    def schedule(self, uri: str, delay: float) -> None:
        """Diagnose `uri` after `delay` seconds, replacing a diagnosis still waiting for it."""
        waiting = self.pending.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
        self.pending[uri] = asyncio.get_running_loop().create_task(self._diagnose(uri, delay))

    async def _diagnose(self, uri: str, delay: float) -> None:
        if delay:
            await asyncio.sleep(delay)
        buffer = self.buffer(uri)
        if buffer is None:
            return
        try:
            result = await self.run(check_buffer, buffer)
        except Exception as exc:  # a bug in a rule must not take the editor's server down
            self.log(f"graphmend: internal error on {buffer.path}: {type(exc).__name__}: {exc}")
            result = FileResult(buffer.path, error=FileError(buffer.path, f"internal error: {exc}"))
        document = self.workspace.text_documents.get(uri)
        if document is None or document.version != buffer.version:
            return  # the buffer moved on (or closed): a newer diagnosis publishes
        self.publish(buffer, result)

    def publish(self, buffer: Buffer, result: FileResult) -> None:
        codec = self.workspace.position_codec
        found = [*config_diagnostics(buffer), *diagnostics(result, buffer.lines, codec)]
        self.published[buffer.uri] = Published(buffer.lines, result.findings)
        self.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(uri=buffer.uri, diagnostics=found, version=buffer.version)
        )

    def forget(self, uri: str) -> None:
        waiting = self.pending.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
        self.published.pop(uri, None)
        try:
            self.pool.submit(REPARSERS.pop, _path(uri), None)  # on the analysis thread, which uses it
        except RuntimeError:  # shut down
            pass
        self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    def buffer(self, uri: str) -> Buffer | None:
        """The open document `uri` with its file's settings; None once it is closed."""
        document = self.workspace.text_documents.get(uri)
        if document is None:
            return None
        path = to_fs_path(uri) if uri.startswith("file:") else None
        buffer = Buffer(uri, document.version, document.source, _path(uri))
        if path is None:  # an unsaved buffer belongs to no project: defaults
            return _with_settings(buffer, config.Settings(root=Path.cwd()), None)
        settings = self.settings(Path(path))
        if isinstance(settings, str):
            return replace(buffer, config_error=settings)
        return _with_settings(buffer, settings, Path(path))

    def settings(self, path: Path) -> config.Settings | str:
        """The [tool.graphmend] that applies to `path` (or why it cannot be read), re-read when a
        pyproject.toml above it appears, changes or goes: keyed by their mtimes, a few stat calls."""
        key = _config_key(path)
        if key not in self.settings_cache:
            try:
                self.settings_cache[key] = config.load([path])
            except config.ConfigError as exc:
                self.settings_cache[key] = f"graphmend: {exc}"
        return self.settings_cache[key]

    def log(self, message: str) -> None:
        self.window_log_message(lsp.LogMessageParams(type=lsp.MessageType.Error, message=message))

    def client_supports(self, dotted: str) -> Any:
        return get_capability(self.client_capabilities, dotted, None)

    def workspace_edit(self, buffer: Buffer, new_text: str) -> lsp.WorkspaceEdit:
        edits = text_edits(buffer.text, new_text, self.workspace.position_codec)
        if self.client_supports("workspace.workspace_edit.document_changes"):
            # versioned: the client refuses it if the buffer changed since
            document = lsp.OptionalVersionedTextDocumentIdentifier(uri=buffer.uri, version=buffer.version)
            return lsp.WorkspaceEdit(document_changes=[lsp.TextDocumentEdit(text_document=document, edits=edits)])
        return lsp.WorkspaceEdit(changes={buffer.uri: edits})


def _path(uri: str) -> str:
    """A document's path: its file's, or the URI of an unsaved buffer."""
    return (to_fs_path(uri) if uri.startswith("file:") else None) or uri


def _without_collector(function: Callable[..., T], *args: Any) -> T:
    """`function` with the cyclic collector off; `GraphmendServer._collect`, queued behind it, turns it back on."""
    gc.disable()
    return function(*args)


def _with_settings(buffer: Buffer, settings: config.Settings, path: Path | None) -> Buffer:
    """`buffer` with the rules, limits and fix mode `check` would use for its file under `settings`. The
    target is the config's `target`, else `export` (every finding): the server does not scan the tree for
    what it asks for, as `check` does; set `target` in the config for the editor to agree with `check`."""
    selected = list(settings.select) if settings.select is not None else None
    ignored = [*settings.ignore, *(settings.ignored_for(path) if path else ())]
    targets = settings.target if settings.target is not None else DEFAULT_TARGET
    try:
        codes = tuple(rule.CODE for rule in select_rules(selected, ignored) if rule.BREAKS.applies(targets))
    except UnknownRule as exc:
        return replace(buffer, config_error=f"graphmend: {settings.source or '[tool.graphmend]'}: {exc}")
    excluded = path is not None and settings.is_excluded(path)
    return replace(buffer, codes=codes, unsafe_fixes=settings.unsafe_fixes, max_bytes=int(settings.max_file_size * 1e6),
                   excluded=excluded, config_warnings=tuple(f"graphmend: {w}" for w in settings.warnings))  # fmt: skip


def _config_key(path: Path) -> tuple:
    key = []
    for directory in path.parents:
        try:
            stat = os.stat(directory / "pyproject.toml")
        except OSError:
            continue
        key.append((str(directory), stat.st_mtime_ns, stat.st_size))
    return tuple(key)


def _version() -> str:
    try:
        return version("graphmend")
    except PackageNotFoundError:
        return "0"


server = GraphmendServer()


# -- features --------------------------------------------------------------------------------------


@server.feature(lsp.INITIALIZED)
async def initialized(ls: GraphmendServer, params: lsp.InitializedParams) -> None:
    # editors that can watch files tell us when a config changes; the others are covered by the mtime key
    if not ls.client_supports("workspace.did_change_watched_files.dynamic_registration"):
        return
    watcher = lsp.FileSystemWatcher(glob_pattern="**/pyproject.toml")
    registration = lsp.Registration(
        id="graphmend-pyproject",
        method=lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES,
        register_options=lsp.DidChangeWatchedFilesRegistrationOptions(watchers=[watcher]),
    )
    try:
        await ls.client_register_capability_async(lsp.RegistrationParams(registrations=[registration]))
    except Exception as exc:  # a client that offers and then refuses: the mtime key still notices changes
        ls.log(f"graphmend: cannot watch pyproject.toml files: {exc}")


@server.feature(lsp.SHUTDOWN)
def shutdown(ls: GraphmendServer, params: None) -> None:
    ls.pool.shutdown(wait=False, cancel_futures=True)  # exit does not wait for analyses nobody will read


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: GraphmendServer, params: lsp.DidOpenTextDocumentParams) -> None:
    ls.schedule(params.text_document.uri, 0)


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: GraphmendServer, params: lsp.DidChangeTextDocumentParams) -> None:
    ls.schedule(params.text_document.uri, DEBOUNCE_SECONDS)


@server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: GraphmendServer, params: lsp.DidSaveTextDocumentParams) -> None:
    ls.schedule(params.text_document.uri, 0)


@server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: GraphmendServer, params: lsp.DidCloseTextDocumentParams) -> None:
    ls.forget(params.text_document.uri)


@server.feature(lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def did_change_watched_files(ls: GraphmendServer, params: lsp.DidChangeWatchedFilesParams) -> None:
    if any(change.uri.endswith("pyproject.toml") for change in params.changes):
        ls.settings_cache.clear()  # an edit within the mtime granularity still counts
        for uri in list(ls.workspace.text_documents):
            ls.schedule(uri, 0)


@server.feature(
    lsp.TEXT_DOCUMENT_CODE_ACTION,
    lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix, FIX_ALL], resolve_provider=True),
)
async def code_action(ls: GraphmendServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
    buffer = ls.buffer(params.text_document.uri)
    if buffer is None:
        return []
    result = await ls.run(check_buffer, buffer)
    if result.error is not None:
        return []
    actions = _actions(buffer, result.findings, params, ls.workspace.position_codec)
    if ls.client_supports("text_document.code_action.resolve_support"):
        return actions  # the edits are computed when one is chosen
    return [await _resolve(ls, action) for action in actions]


@server.feature(lsp.CODE_ACTION_RESOLVE)
async def code_action_resolve(ls: GraphmendServer, action: lsp.CodeAction) -> lsp.CodeAction:
    return await _resolve(ls, action)


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
def hover(ls: GraphmendServer, params: lsp.HoverParams) -> lsp.Hover | None:
    published = ls.published.get(params.text_document.uri)
    if published is None:
        return None
    codec = ls.workspace.position_codec
    at = codec.position_from_client_units(published.lines, params.position)
    here = (at.line, at.character)
    codes = dict.fromkeys(f.code for f in published.findings if f.code in RULES and _overlaps(f, here, here))
    if not codes:
        return None
    formats = ls.client_supports("text_document.hover.content_format") or []
    kind = lsp.MarkupKind.Markdown if lsp.MarkupKind.Markdown in formats else lsp.MarkupKind.PlainText
    pages = [hover_page(code, kind == lsp.MarkupKind.Markdown) for code in codes]
    return lsp.Hover(contents=lsp.MarkupContent(kind=kind, value="\n\n---\n\n".join(pages)))


def _actions(buffer: Buffer, findings: Sequence[Finding], params: lsp.CodeActionParams, codec: PositionCodec):
    """The actions on offer, without their edits (those are computed on resolve)."""
    only = params.context.only
    span = codec.range_from_client_units(buffer.lines, params.range)
    start, end = (span.start.line, span.start.character), (span.end.line, span.end.character)
    actions: list[lsp.CodeAction] = []
    if _wanted(lsp.CodeActionKind.QuickFix, only):
        for finding in (f for f in findings if _overlaps(f, start, end)):
            actions += _quick_fixes(buffer, finding, finding_diagnostic(finding, buffer.lines, codec))
    fixable = {"safe", "unsafe"} if buffer.unsafe_fixes else {"safe"}
    if _wanted(FIX_ALL, only) and any(f.fix in fixable for f in findings):
        title = "graphmend: fix all" + (" (unsafe fixes too: unsafe-fixes = true)" if buffer.unsafe_fixes else
                                        " safe fixes")  # fmt: skip
        actions.append(lsp.CodeAction(title=title, kind=FIX_ALL, data=_data(buffer, "fix-all")))
    return actions


def _quick_fixes(buffer: Buffer, finding: Finding, diagnostic: lsp.Diagnostic) -> list[lsp.CodeAction]:
    actions = []
    change = f"`{_short(finding.original)}` → `{_short(finding.replacement)}`"
    if finding.fix == "safe":
        actions.append(lsp.CodeAction(title=f"Fix {finding.code}: {change}", kind=lsp.CodeActionKind.QuickFix,
                                      diagnostics=[diagnostic], is_preferred=True,
                                      data=_data(buffer, "fix", finding)))  # fmt: skip
    elif finding.fix == "unsafe":  # never preferred, never in fix-all: the title says what it risks
        actions.append(lsp.CodeAction(title=f"Fix {finding.code} (unsafe, may change behaviour): {change}",
                                      kind=lsp.CodeActionKind.QuickFix, diagnostics=[diagnostic],
                                      data=_data(buffer, "fix-unsafe", finding)))  # fmt: skip
    if finding.code != UNUSED_CODE:
        actions.append(lsp.CodeAction(title=f"Ignore {finding.code} on this line", kind=lsp.CodeActionKind.QuickFix,
                                      diagnostics=[diagnostic], data=_data(buffer, "ignore", finding)))  # fmt: skip
    return actions


def _data(buffer: Buffer, action: str, finding: Finding | None = None) -> dict:
    return {"uri": buffer.uri, "version": buffer.version, "action": action,
            "key": list(_key(finding)) if finding else None}  # fmt: skip


async def _resolve(ls: GraphmendServer, action: lsp.CodeAction) -> lsp.CodeAction:
    data = action.data if isinstance(action.data, dict) else {}
    buffer = ls.buffer(data.get("uri", ""))
    if buffer is None or buffer.version != data.get("version"):
        return action  # offered for an older text: no edit rather than a wrong one
    try:
        new_text = await ls.run(_edited, buffer, data["action"], tuple(data["key"] or ()))
    except Exception as exc:  # e.g. engine.FixError: a fix that would not parse is never offered
        ls.log(f"graphmend: cannot compute {action.title!r} for {buffer.path}: {exc}")
        return action
    if new_text is not None and new_text != buffer.text:
        action.edit = ls.workspace_edit(buffer, new_text)
    return action


def _edited(buffer: Buffer, action: str, key: tuple) -> str | None:
    if action == "fix-all":
        return fix_all(buffer)
    if action == "ignore":
        return ignore_one(buffer, key)
    return fix_one(buffer, key, unsafe=action == "fix-unsafe")
