"""`graphmend server` driven over stdio by a real LSP client (pytest-lsp), the way an editor drives it.

The server runs as a subprocess; every test waits for the notification it expects (the publishDiagnostics of
one document version, or the first one after an action), never for a time, so the debounce cannot make a
test racy. Edits the server returns are applied to the text here and compared byte for byte with
`fix_source` and with `graphmend fix` on the same file on disk.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import subprocess
import sys
import textwrap
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from lsprotocol import types as lsp
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

from graphmend import check_source, fix_source
from graphmend.rules import RULES, rule_page
from graphmend.server import FIX_ALL, README

pytestmark = pytest.mark.asyncio(loop_scope="module")

ROOT = Path(__file__).resolve().parent.parent
GRAPHMEND = str(Path(sys.executable).parent / "graphmend")
SERVER = [sys.executable, "-m", "graphmend", "server"]
WAIT = 120  # seconds: only a hung server reaches it; no assertion depends on how fast anything is

HOSTILE = textwrap.dedent(
    """\
    import numpy as np
    from mindspore import nn, ops, Parameter, Tensor

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.p = Parameter(Tensor(np.zeros(3, np.float32)))
        def construct(self, x):
            self.p.set_data(x)
            return x + Tensor(np.ones((x.shape[0], 2)))
    """
)
CLEAN = HOSTILE.replace("self.p.set_data(x)", "ops.assign(self.p, x)").replace(
    "Tensor(np.ones((x.shape[0], 2)))", "ops.ones((x.shape[0], 2), ms.float64)"
)
# an unsafe fix (GM401), and a line that already suppresses one rule (GM201) but not another (GM101)
MIXED = textwrap.dedent(
    """\
    import numpy as np
    from mindspore import nn, ops, Parameter, Tensor


    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.p = Parameter(Tensor(np.zeros(3, np.float32)))
            self.q = Parameter(Tensor(np.zeros(3, np.float32)))

        def construct(self, x):
            self.p.set_data(x)
            self.q.set_data(Tensor(np.ones(x.shape[0], np.float32)))  # graphmend: ignore[GM201]
            if x.sum() > 0:
                x = x + 1
            else:
                x = x - 1
            return x + Tensor(np.ones((x.shape[0], 2)))
    """
)


# -- the client ------------------------------------------------------------------------------------


class Client(LanguageClient):
    """pytest-lsp's client, recording every publishDiagnostics in order (with its version)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.published: list[lsp.PublishDiagnosticsParams] = []
        self.arrived = asyncio.Event()
        self.encoding = "utf-16"
        self.server_sync_kind: object = None
        self.registrations: list[lsp.Registration] = []


def _record(client: Client, params: lsp.PublishDiagnosticsParams) -> None:
    client.published.append(params)
    client.diagnostics[params.uri] = params.diagnostics
    client.arrived.set()


def _register(client: Client, params: lsp.RegistrationParams) -> None:
    client.registrations += params.registrations


def _make_client() -> Client:
    client = Client(converter_factory=default_converter)
    features = {lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS: _record, lsp.CLIENT_REGISTER_CAPABILITY: _register}
    register_lsp_features(client, {**DEFAULT_CLIENT_FEATURES, **features})
    return client


async def start(capabilities: lsp.ClientCapabilities, env: dict[str, str] | None = None) -> Client:
    config = ClientServerConfig(server_command=SERVER, client_factory=_make_client, server_env=env)
    client = await config.start()
    assert isinstance(client, Client)
    result = await client.initialize_session(lsp.InitializeParams(capabilities=capabilities))
    client.encoding = result.capabilities.position_encoding or "utf-16"
    sync = result.capabilities.text_document_sync
    client.server_sync_kind = sync.change if isinstance(sync, lsp.TextDocumentSyncOptions) else sync
    return client


async def stop(client: Client) -> None:
    await client.shutdown_session()
    await client.stop()


@pytest.fixture(scope="module")
def markers(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory whose `mindspore` and `usercode` modules leave a file behind if anything imports them."""
    site = tmp_path_factory.mktemp("site")
    (site / "mindspore").mkdir()
    for module in (site / "mindspore" / "__init__.py", site / "usercode.py"):
        module.write_text(f"open({str(site / (module.stem + '.imported'))!r}, 'w').close()\n")
    return site


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def client(markers: Path) -> AsyncIterator[Client]:
    # Neovim 0.11's capabilities: UTF-8 positions, codeAction/resolve, no documentChanges, no file watching
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(markers), str(ROOT)])}
    started = await start(client_capabilities("neovim@v0.11.0"), env)
    yield started
    await stop(started)


async def published(client: Client, uri: str, version: int | None, after: int) -> list[lsp.Diagnostic]:
    """The diagnostics of the first publish for `uri` at `version` since `after` publishes."""

    async def first() -> list[lsp.Diagnostic]:
        while True:
            for params in client.published[after:]:
                if params.uri == uri and params.version == version:
                    return list(params.diagnostics)
            client.arrived.clear()
            await client.arrived.wait()

    return await asyncio.wait_for(first(), WAIT)


async def open_document(client: Client, uri: str, text: str) -> list[lsp.Diagnostic]:
    mark = len(client.published)
    item = lsp.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(text_document=item))
    return await published(client, uri, 1, mark)


async def change_document(client: Client, uri: str, version: int, changes: list) -> list[lsp.Diagnostic]:
    mark = len(client.published)
    document = lsp.VersionedTextDocumentIdentifier(uri=uri, version=version)
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(text_document=document, content_changes=changes))
    return await published(client, uri, version, mark)


def whole(text: str) -> list:
    return [lsp.TextDocumentContentChangeWholeDocument(text=text)]


async def code_actions(client: Client, uri: str, where: lsp.Range, only: list[str] | None = None):
    context = lsp.CodeActionContext(diagnostics=[], only=only)
    params = lsp.CodeActionParams(text_document=lsp.TextDocumentIdentifier(uri=uri), range=where, context=context)
    found = await asyncio.wait_for(client.text_document_code_action_async(params), WAIT)
    return [a for a in found or [] if isinstance(a, lsp.CodeAction)]


async def resolved(client: Client, action: lsp.CodeAction) -> lsp.CodeAction:
    if action.edit is None and action.data is not None:
        return await asyncio.wait_for(client.code_action_resolve_async(action), WAIT)
    return action


async def edited(client: Client, uri: str, text: str, action: lsp.CodeAction) -> str:
    """`text` with the edit of `action` (resolved if need be) applied, as the editor would."""
    action = await resolved(client, action)
    assert action.edit is not None, action
    return apply_edit(text, action.edit, uri, client.encoding)


def apply_edit(text: str, edit: lsp.WorkspaceEdit, uri: str, encoding: str) -> str:
    if edit.document_changes:
        (change,) = edit.document_changes
        assert isinstance(change, lsp.TextDocumentEdit) and change.text_document.uri == uri
        edits = change.edits
    else:
        assert edit.changes is not None and set(edit.changes) == {uri}
        edits = edit.changes[uri]
    lines = io.StringIO(text, newline="").readlines()
    spans = [(_offset(lines, e.range.start, encoding), _offset(lines, e.range.end, encoding), e.new_text)
             for e in edits]  # fmt: skip
    for start, end, new_text in sorted(spans, reverse=True):  # from the end: earlier offsets stay valid
        text = text[:start] + new_text + text[end:]
    return text


def _offset(lines: list[str], position: lsp.Position, encoding: str) -> int:
    if position.line >= len(lines):
        assert position.character == 0
        return sum(map(len, lines))
    line = lines[position.line]
    codec = {"utf-8": "utf-8", "utf-16": "utf-16-le", "utf-32": "utf-32-le"}[encoding]
    width = {"utf-8": 1, "utf-16": 2, "utf-32": 4}[encoding]
    characters = len(line.encode(codec)[: position.character * width].decode(codec))
    return sum(map(len, lines[: position.line])) + characters


def by_code(diagnostics: list[lsp.Diagnostic], code: str) -> lsp.Diagnostic:
    (found,) = [d for d in diagnostics if d.code == code]
    return found


def uri_of(path: Path, text: str) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path.as_uri()


def gm(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([GRAPHMEND, *args], cwd=cwd, capture_output=True, text=True, timeout=WAIT)


# -- diagnostics -----------------------------------------------------------------------------------


async def test_open_reports_gm101_and_gm201_like_check(client: Client, tmp_path: Path) -> None:
    assert not any((d / "pyproject.toml").exists() for d in tmp_path.parents)  # outside any project: defaults
    uri = uri_of(tmp_path / "net.py", HOSTILE)
    diagnostics = await open_document(client, uri, HOSTILE)
    assert [d.code for d in diagnostics] == ["GM201", "GM101"]
    cli = json.loads(gm("check", "--no-cache", "--format", "json", "net.py", cwd=tmp_path).stdout)
    for diagnostic, finding, reported in zip(diagnostics, check_source(HOSTILE, "net.py"), cli, strict=True):
        assert diagnostic.code == finding.code == reported["code"]
        assert diagnostic.message == finding.message == reported["message"]
        start, end = reported["location"], reported["end_location"]
        assert diagnostic.range == lsp.Range(
            start=lsp.Position(line=start["row"] - 1, character=start["column"] - 1),
            end=lsp.Position(line=end["row"] - 1, character=end["column"] - 1),
        )
        assert diagnostic.severity == lsp.DiagnosticSeverity.Warning and diagnostic.source == "graphmend"
        assert diagnostic.code_description is not None
        assert diagnostic.code_description.href == f"{README.as_uri()}#the-rules" and README.is_file()
    assert "### The rules" in README.read_text()  # the anchor the link points at


async def test_unsaved_buffer_gets_the_default_rules(client: Client) -> None:
    diagnostics = await open_document(client, "untitled:Untitled-1", HOSTILE)
    assert [d.code for d in diagnostics] == ["GM201", "GM101"]


async def test_change_that_removes_the_problems_clears_the_diagnostics(client: Client, tmp_path: Path) -> None:
    uri = uri_of(tmp_path / "net.py", HOSTILE)
    await open_document(client, uri, HOSTILE)
    assert not check_source(CLEAN, "net.py")
    assert await change_document(client, uri, 2, whole(CLEAN)) == []
    assert await change_document(client, uri, 3, whole(HOSTILE)) != []  # and back


async def test_changes_in_the_middle_of_a_large_file_give_checks_findings(client: Client, tmp_path: Path) -> None:
    # the server parses again only the statements an edit touches: what it shows is still `check`'s
    head, _, cell = HOSTILE.partition("class Net")
    text = head + "".join(f"class Net{n}{cell}\n\n" for n in range(8))
    uri = uri_of(tmp_path / "many.py", text)

    def expected(text: str) -> list[tuple]:
        return [(f.code, f.line - 1, f.column - 1, f.message) for f in check_source(text, "many.py")]

    def shown(diagnostics: list[lsp.Diagnostic]) -> list[tuple]:
        return [(d.code, d.range.start.line, d.range.start.character, d.message) for d in diagnostics]

    assert shown(await open_document(client, uri, text)) == expected(text)
    lines = text.split("\n")
    middle = next(i for i in range(len(lines) // 2, len(lines)) if "self.p.set_data(x)" in lines[i])
    edits = [
        lambda: lines.__setitem__(middle, lines[middle] + "  # a comment"),
        lambda: lines.__setitem__(middle, lines[middle].replace("self.p.set_data(x)", "ops.assign(self.p, x)")),
        lambda: lines.insert(middle, "        y = Tensor(np.ones(3))"),
        lambda: lines.insert(middle, "# a comment at the margin"),
        lambda: lines.__delitem__(middle),
        lambda: lines.__setitem__(middle + 1, lines[middle + 1] + "  # graphmend: ignore[GM101]"),
    ]
    for version, edit in enumerate(edits, start=2):
        edit()
        text = "\n".join(lines)
        assert shown(await change_document(client, uri, version, whole(text))) == expected(text), version


async def test_save_diagnoses_and_close_clears(client: Client, tmp_path: Path) -> None:
    uri = uri_of(tmp_path / "net.py", HOSTILE)
    await open_document(client, uri, HOSTILE)
    mark = len(client.published)
    client.text_document_did_save(lsp.DidSaveTextDocumentParams(text_document=lsp.TextDocumentIdentifier(uri=uri)))
    assert len(await published(client, uri, 1, mark)) == 2
    mark = len(client.published)
    client.text_document_did_close(lsp.DidCloseTextDocumentParams(text_document=lsp.TextDocumentIdentifier(uri=uri)))
    assert await published(client, uri, None, mark) == []


async def test_broken_buffer_gives_one_syntax_diagnostic_and_no_stale_ones(client: Client, tmp_path: Path) -> None:
    uri = uri_of(tmp_path / "net.py", HOSTILE)
    await open_document(client, uri, HOSTILE)
    broken = HOSTILE.replace("def construct(self, x):", "def construct(self, x:")
    (diagnostic,) = await change_document(client, uri, 2, whole(broken))
    assert diagnostic.severity == lsp.DiagnosticSeverity.Error and diagnostic.code is None
    assert "cannot parse" in diagnostic.message and diagnostic.range.start.line == 7
    everything = lsp.Range(start=lsp.Position(line=0, character=0), end=lsp.Position(line=10, character=0))
    assert await code_actions(client, uri, everything) == []
    assert await hover(client, uri, lsp.Position(line=9, character=20)) is None
    assert len(await change_document(client, uri, 3, whole(HOSTILE))) == 2  # the server is still there


async def test_positions_are_in_the_negotiated_encoding(client: Client, tmp_path: Path) -> None:
    assert client.encoding == "utf-8"  # what Neovim asks for first
    mask = "Tensor(np.ones((x.shape[0], 2)))"
    text = HOSTILE.replace(f"return x + {mask}", f'return ("形状", x + {mask})')
    text = text.replace("class Net", "\x0cclass Net")  # a form feed: not a line break, for LSP or Python
    assert [d.range.start.line for d in await open_document(client, uri_of(tmp_path / "a.py", text), text)] == [
        f.line - 1 for f in check_source(text, "a.py")
    ]
    uri = uri_of(tmp_path / "net.py", text)
    diagnostic = by_code(await open_document(client, uri, text), "GM101")
    line = io.StringIO(text, newline="").readlines()[diagnostic.range.start.line]
    assert diagnostic.range.start.character == len(line[: line.index("Tensor(np")].encode("utf-8"))
    (fix,) = [a for a in await code_actions(client, uri, diagnostic.range) if a.title.startswith("Fix GM101")]
    assert await edited(client, uri, text, fix) == fix_source(text, "net.py", select=["GM101"]).output


async def test_the_editor_sends_whole_texts(client: Client) -> None:
    # pygls's incremental sync splits lines where str.splitlines does (form feeds too): not used
    assert client.server_sync_kind == lsp.TextDocumentSyncKind.Full


# -- code actions ----------------------------------------------------------------------------------


async def test_quick_fix_is_fix_source_of_that_finding_with_its_import(client: Client, tmp_path: Path) -> None:
    uri = uri_of(tmp_path / "net.py", HOSTILE)
    diagnostics = await open_document(client, uri, HOSTILE)
    for code in ("GM101", "GM201"):
        diagnostic = by_code(diagnostics, code)
        actions = await code_actions(client, uri, diagnostic.range, only=[lsp.CodeActionKind.QuickFix])
        (fix,) = [a for a in actions if a.title.startswith(f"Fix {code}:")]
        assert fix.kind == lsp.CodeActionKind.QuickFix and fix.is_preferred and fix.diagnostics
        assert fix.diagnostics[0].code == code
        assert await edited(client, uri, HOSTILE, fix) == fix_source(HOSTILE, "net.py", select=[code]).output
    fix_101 = [a for a in await code_actions(client, uri, by_code(diagnostics, "GM101").range)
               if a.title.startswith("Fix GM101")]  # fmt: skip
    assert "import mindspore\n" in await edited(client, uri, HOSTILE, fix_101[0])  # the import the fix needs


async def test_fix_all_is_graphmend_fix_on_the_same_file(client: Client, tmp_path: Path) -> None:
    uri = uri_of(tmp_path / "net.py", MIXED)
    await open_document(client, uri, MIXED)
    top = lsp.Range(start=lsp.Position(line=0, character=0), end=lsp.Position(line=0, character=0))
    (fix_all,) = await code_actions(client, uri, top, only=[lsp.CodeActionKind.SourceFixAll])
    assert fix_all.kind == FIX_ALL and "safe" in fix_all.title
    result = await edited(client, uri, MIXED, fix_all)
    assert result == fix_source(MIXED, "net.py").output
    assert gm("fix", "--no-cache", "net.py", cwd=tmp_path).returncode == 1  # GM401 (unsafe) is left
    assert result == (tmp_path / "net.py").read_text()
    assert "if x.sum() > 0:" in result  # the unsafe fix is not part of it


async def test_unsafe_fix_is_only_an_explicitly_labelled_action(client: Client, tmp_path: Path) -> None:
    uri = uri_of(tmp_path / "net.py", MIXED)
    diagnostic = by_code(await open_document(client, uri, MIXED), "GM401")
    actions = await code_actions(client, uri, diagnostic.range)
    (unsafe,) = [a for a in actions if a.title.startswith("Fix GM401")]
    assert "unsafe" in unsafe.title and not unsafe.is_preferred
    expected = fix_source(MIXED, "net.py", unsafe=True, select=["GM401"]).output
    assert await edited(client, uri, MIXED, unsafe) == expected


async def test_ignore_adds_or_merges_a_suppression_that_silences_it(client: Client, tmp_path: Path) -> None:
    uri = uri_of(tmp_path / "net.py", MIXED)
    diagnostics = await open_document(client, uri, MIXED)
    merged = next(d for d in diagnostics if d.code == "GM101" and d.range.start.line == 12)
    (ignore,) = [a for a in await code_actions(client, uri, merged.range) if a.title == "Ignore GM101 on this line"]
    text = await edited(client, uri, MIXED, ignore)
    assert text == MIXED.replace("# graphmend: ignore[GM201]", "# graphmend: ignore[GM101,GM201]")
    after = await change_document(client, uri, 2, whole(text))
    assert [(d.code, d.range.start.line) for d in after] == [("GM201", 11), ("GM401", 13), ("GM101", 17)]
    new = by_code(after, "GM201")
    (ignore,) = [a for a in await code_actions(client, uri, new.range) if a.title == "Ignore GM201 on this line"]
    text = await edited(client, uri, text, ignore)
    assert "self.p.set_data(x)  # graphmend: ignore[GM201]\n" in text
    assert [d.code for d in await change_document(client, uri, 3, whole(text))] == ["GM401", "GM101"]


async def test_actions_for_an_older_version_carry_no_edit(client: Client, tmp_path: Path) -> None:
    uri = uri_of(tmp_path / "net.py", HOSTILE)
    diagnostic = by_code(await open_document(client, uri, HOSTILE), "GM101")
    (fix,) = [a for a in await code_actions(client, uri, diagnostic.range) if a.title.startswith("Fix GM101")]
    await change_document(client, uri, 2, whole(HOSTILE + "\n"))
    assert (await resolved(client, fix)).edit is None


# -- configuration ---------------------------------------------------------------------------------


async def test_pyproject_change_reloads_the_config(client: Client, tmp_path: Path) -> None:
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text("[tool.graphmend]\n")
    uri = uri_of(tmp_path / "pkg" / "net.py", HOSTILE)
    assert [d.code for d in await open_document(client, uri, HOSTILE)] == ["GM201", "GM101"]
    pyproject.write_text('[tool.graphmend]\nignore = ["GM101"]\n')
    mark = len(client.published)
    event = lsp.FileEvent(uri=pyproject.as_uri(), type=lsp.FileChangeType.Changed)
    client.workspace_did_change_watched_files(lsp.DidChangeWatchedFilesParams(changes=[event]))
    assert [d.code for d in await published(client, uri, 1, mark)] == ["GM201"]
    # without a notification (Neovim on Linux sends none): read again when its mtime or size changes
    pyproject.write_text('[tool.graphmend]\nignore = ["GM201", "GM000"]\n')
    mark = len(client.published)
    client.text_document_did_save(lsp.DidSaveTextDocumentParams(text_document=lsp.TextDocumentIdentifier(uri=uri)))
    assert [d.code for d in await published(client, uri, 1, mark)] == ["GM101"]


async def test_config_is_the_one_check_uses(client: Client, tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.graphmend]\nexclude = ["vendored/**"]\nper-file-ignores = { "tests/**" = ["GM201"] }\n'
    )
    names = ["tests/test_net.py", "vendored/net.py", "net.py"]
    uris = [uri_of(tmp_path / name, HOSTILE) for name in names]
    reported = json.loads(gm("check", "--no-cache", "--format", "json", ".", cwd=tmp_path).stdout)
    for name, uri in zip(names, uris, strict=True):
        expected = [f["code"] for f in reported if f["filename"] == name]
        assert [d.code for d in await open_document(client, uri, HOSTILE)] == expected, name
    assert [f["filename"] for f in reported] == ["net.py", "net.py", "tests/test_net.py"]  # each rule saw its files


async def test_a_bad_config_is_one_error_and_an_unknown_key_a_warning(client: Client, tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.graphmend]\nper-file-ignores = ["GM101"]\n')  # not a table
    uri = uri_of(tmp_path / "net.py", HOSTILE)
    (diagnostic,) = await open_document(client, uri, HOSTILE)
    assert diagnostic.severity == lsp.DiagnosticSeverity.Error and "per-file-ignores: expected" in diagnostic.message
    (tmp_path / "pyproject.toml").write_text('[tool.graphmend]\nselct = ["GM1"]\n')  # `check` warns, goes on
    mark = len(client.published)
    client.text_document_did_save(lsp.DidSaveTextDocumentParams(text_document=lsp.TextDocumentIdentifier(uri=uri)))
    warning, *findings = await published(client, uri, 1, mark)
    assert warning.severity == lsp.DiagnosticSeverity.Warning and 'unknown key "selct"' in warning.message
    assert [d.code for d in findings] == ["GM201", "GM101"]


# -- hover -----------------------------------------------------------------------------------------


async def hover(client: Client, uri: str, position: lsp.Position) -> lsp.Hover | None:
    params = lsp.HoverParams(text_document=lsp.TextDocumentIdentifier(uri=uri), position=position)
    return await asyncio.wait_for(client.text_document_hover_async(params), WAIT)


async def test_hover_on_a_finding_shows_the_rule_page(client: Client, tmp_path: Path) -> None:
    uri = uri_of(tmp_path / "net.py", HOSTILE)
    diagnostic = by_code(await open_document(client, uri, HOSTILE), "GM101")
    found = await hover(client, uri, diagnostic.range.start)
    assert found is not None and isinstance(found.contents, lsp.MarkupContent)
    assert found.contents.kind == lsp.MarkupKind.Markdown
    page = found.contents.value
    assert page.startswith("**GM101 numpy-constructor** (on by default)")
    for heading in ("What it does", "Why it breaks graph mode", "Example", "Fix safety"):
        assert f"**{heading}**" in page
    assert "```python\nimg_atts = ms.Tensor(np.ones((batch_size, n)), dtype=ms.float32)" in page
    assert await hover(client, uri, lsp.Position(line=2, character=0)) is None  # a blank line


# -- other editors, and what the server never does ---------------------------------------------------


# a client that takes code action literals and nothing else: no resolve, no documentChanges, plain text
MINIMAL = lsp.ClientCapabilities(
    text_document=lsp.TextDocumentClientCapabilities(
        code_action=lsp.CodeActionClientCapabilities(
            code_action_literal_support=lsp.ClientCodeActionLiteralOptions(
                code_action_kind=lsp.ClientCodeActionKindOptions(value_set=["quickfix", "source"])
            )
        )
    )
)


@pytest.mark.parametrize("editor", ["visual-studio-code", "bare"])
async def test_other_clients(editor: str, tmp_path: Path) -> None:
    """VS Code's capabilities (versioned documentChanges, UTF-16, file watching) and a minimal client (no
    resolve: edits come with the action; plain-text hover, exactly what `graphmend rules CODE` prints)."""
    client = await start(MINIMAL if editor == "bare" else client_capabilities(editor))
    try:
        uri = uri_of(tmp_path / "net.py", MIXED)
        diagnostics = await open_document(client, uri, MIXED)
        top = lsp.Range(start=lsp.Position(line=0, character=0), end=lsp.Position(line=0, character=0))
        (fix_all,) = await code_actions(client, uri, top, only=[lsp.CodeActionKind.SourceFixAll])
        assert (fix_all.edit is not None) == (editor == "bare")
        fix_all = await resolved(client, fix_all)
        assert fix_all.edit is not None and (fix_all.edit.document_changes is not None) == (editor != "bare")
        assert apply_edit(MIXED, fix_all.edit, uri, client.encoding) == fix_source(MIXED, "net.py").output
        found = await hover(client, uri, by_code(diagnostics, "GM401").range.start)
        assert found is not None and isinstance(found.contents, lsp.MarkupContent)
        if editor == "bare":
            assert found.contents.kind == lsp.MarkupKind.PlainText
            assert found.contents.value == rule_page(RULES["GM401"])
        else:
            (watch,) = client.registrations
            assert watch.method == lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES
    finally:
        await stop(client)


async def test_never_imports_mindspore_or_the_code_it_reads(client: Client, markers: Path, tmp_path: Path) -> None:
    text = "import usercode\nimport mindspore as ms\n" + HOSTILE
    uri = uri_of(tmp_path / "net.py", text)
    diagnostics = await open_document(client, uri, text)
    everything = lsp.Range(start=lsp.Position(line=0, character=0), end=lsp.Position(line=20, character=0))
    for action in await code_actions(client, uri, everything):
        assert (await resolved(client, action)).edit is not None
    assert await hover(client, uri, diagnostics[0].range.start) is not None
    assert list(markers.glob("*.imported")) == []
    probe = subprocess.run([sys.executable, "-c", "import usercode, mindspore"], env={"PYTHONPATH": str(markers)})
    assert probe.returncode == 0 and len(list(markers.glob("*.imported"))) == 2  # the markers do work
    for marker in markers.glob("*.imported"):
        marker.unlink()
