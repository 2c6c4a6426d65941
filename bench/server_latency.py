"""How long `graphmend server` takes to publish diagnostics after a change, on one large file.

Starts the real server over stdio (pygls's client), opens FILE, then makes one-line edits (a new
comment on a line in the middle each time) and times each from the didChange notification to
the publishDiagnostics of that version. The debounce is part of what an editor waits for, so it is
included; the time of check_buffer alone (in this process, CPU time) is printed beside it.

    .venv/bin/python bench/server_latency.py [FILE] [--edits N]

Without FILE it writes a 3,000-line file of Cell code (Cells of 25 lines, two findings each) to a
temporary directory and uses that.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from graphmend.rules import select_rules  # noqa: E402
from graphmend.server import DEBOUNCE_SECONDS, REPARSERS, Buffer, _run, check_buffer  # noqa: E402

CELL = '''

class Block{n}(nn.Cell):
    """A block of a generated model: attention-like mixing, a gate, a residual."""

    def __init__(self, dim, heads=4):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Dense(dim, dim * 3)
        self.proj = nn.Dense(dim, dim)
        self.norm = nn.LayerNorm((dim,))
        self.gate = nn.Dense(dim, dim)
        self.drop = nn.Dropout(p=0.1)

    def construct(self, x):
        b, n, c = x.shape
        h = self.norm(x)
        q, k, v = ops.split(self.qkv(h), c, axis=-1)
        q = q.reshape(b, n, self.heads, c // self.heads).transpose(0, 2, 1, 3)
        k = k.reshape(b, n, self.heads, c // self.heads).transpose(0, 2, 3, 1)
        v = v.reshape(b, n, self.heads, c // self.heads).transpose(0, 2, 1, 3)
        attn = ops.softmax(ops.matmul(q, k) / (c // self.heads) ** 0.5, dim=-1)
        h = ops.matmul(self.drop(attn), v).transpose(0, 2, 1, 3).reshape(b, n, c)
        scale = Tensor(np.ones((1, 1, c)), mindspore.float32)
        return x + self.proj(h) * ops.sigmoid(self.gate(h)) * scale
'''


def generated(directory: Path, lines: int = 3000) -> Path:
    header = "import mindspore\nimport numpy as np\nfrom mindspore import nn, ops, Parameter, Tensor\n"
    body = "".join(CELL.format(n=n) for n in range(lines // CELL.count("\n")))
    path = directory / "generated_cells.py"
    path.write_text(header + body)
    return path


async def measure(path: Path, edits: int) -> tuple[list[float], int | None]:
    text = path.read_text(encoding="utf-8")
    client = LanguageClient("latency", "1")
    arrived: dict[int, float] = {}
    waiters: dict[int, asyncio.Future] = {}

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def _published(params: lsp.PublishDiagnosticsParams) -> None:
        arrived[params.version] = time.perf_counter()
        if params.version in waiters:
            waiters.pop(params.version).set_result(len(params.diagnostics))

    await client.start_io(sys.executable, "-m", "graphmend", "server", cwd=str(HERE.parent))
    await client.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities()))
    client.initialized(lsp.InitializedParams())
    uri = path.resolve().as_uri()
    loop = asyncio.get_running_loop()

    async def until(version: int, send) -> tuple[float, int]:
        waiters[version] = loop.create_future()
        sent = time.perf_counter()
        send()
        count = await waiters[version]
        return arrived[version] - sent, count

    item = lsp.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)
    opened, count = await until(1, lambda: client.text_document_did_open(lsp.DidOpenTextDocumentParams(item)))
    print(f"{path} ({text.count(chr(10))} lines): didOpen → {count} diagnostics in {opened:.2f} s (first parse)")
    middle = text.count("\n") // 2
    base = text.splitlines()[middle]
    latencies = []
    for version in range(2, edits + 2):
        # a new comment each time: a text seen before would be answered from the server's cache
        text = _replace_line(text, middle, f"{base}  # edit {version}")
        change = lsp.TextDocumentContentChangeWholeDocument(text=text)  # the server asks for full sync
        document = lsp.VersionedTextDocumentIdentifier(uri=uri, version=version)
        params = lsp.DidChangeTextDocumentParams(text_document=document, content_changes=[change])
        latency, count = await until(version, lambda p=params: client.text_document_did_change(p))
        latencies.append(latency)
        print(f"  didChange v{version} → {count} diagnostics in {latency:.2f} s")
    peak = _peak_kb(client._server.pid) if client._server else None  # pygls keeps the process there
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return latencies, peak


def _peak_kb(pid: int) -> int | None:
    """The process's peak resident memory so far (Linux's VmHWM), in kB; None elsewhere."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    return next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM:")), None)


def _replace_line(text: str, line: int, new: str) -> str:
    lines = text.split("\n")
    lines[line] = new
    return "\n".join(lines)


def analysis_cpu(path: Path, runs: int = 3, collector: bool = True, edits: bool = False) -> list[float]:
    """check_buffer alone, in this process: CPU seconds per run (distinct texts, so nothing is cached).
    Without `collector`, as the server runs it: the cyclic garbage collector off during the analysis and
    run after it (not timed: the server does it after publishing). With `edits`, each text is the last one
    with a comment added to a line in the middle, as in `measure` (the parse, positions and parents reuse
    the statements the edit does not touch); otherwise a line is added at the end and the whole file is
    parsed, as on opening it."""
    text = path.read_text(encoding="utf-8")
    codes = tuple(rule.CODE for rule in select_rules())
    middle = text.count("\n") // 2
    base = text.splitlines()[middle]
    times = []
    for n in range(runs + 1 if edits else runs):
        changed = _replace_line(text, middle, f"{base}  # run {n}") if edits else text + f"\n# run {n}\n"
        buffer = Buffer("file:///x.py", n, changed, str(path), codes)
        if not edits:
            REPARSERS.clear()  # parsed whole: the analysis as on opening the file
        if not collector:
            gc.disable()
        start = time.process_time()
        check_buffer(buffer)
        times.append(time.process_time() - start)
        gc.enable()
        gc.collect()
    _run.cache_clear()
    REPARSERS.clear()
    return times[1:] if edits else times  # the first of the edits is the open: a whole parse


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", type=Path)
    parser.add_argument("--edits", type=int, default=4)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        path = args.file or generated(Path(scratch))
        latencies, peak = asyncio.run(measure(path, args.edits))
        cpu = analysis_cpu(path)
        paused = analysis_cpu(path, collector=False)
        edited = analysis_cpu(path, runs=5, collector=False, edits=True)
    memory = f"; server's peak memory {peak / 1024:.0f} MB" if peak else ""
    print(f"after a change: median {statistics.median(latencies):.2f} s, max {max(latencies):.2f} s "
          f"(debounce {DEBOUNCE_SECONDS} s included); check_buffer alone {statistics.median(cpu):.2f} s CPU, "
          f"{statistics.median(paused):.2f} s with the collector paused as the server does, "
          f"{statistics.median(edited):.2f} s after a one-line edit as the server does it (reusing the rest){memory}; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")  # fmt: skip


if __name__ == "__main__":
    main()
