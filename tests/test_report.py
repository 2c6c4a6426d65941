"""The HTML migration report as a user sees it: written by `graphmend report`, rendered by headless
Chromium, and read back from the DOM Chromium built (parsed with the stdlib html.parser).

Chromium takes a second or more to start, so one rendering of one project is shared by most tests.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from html.parser import HTMLParser
from importlib.metadata import version
from pathlib import Path

import pytest

import graphmend
from graphmend.files import process_source
from graphmend.output.html import render_report
from graphmend.rules import select_rules

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"  # ignored by git; conftest lists what this run wrote there
GRAPHMEND = str(Path(sys.executable).parent / "graphmend")
CHROMIUM = shutil.which("chromium")

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium (`make chromium` installs it)")

# Added to a copy of examples/: a file that does not parse, a fix that is unsafe (and one with none),
# suppressions (one used, one stale), and user code that looks like markup, in a file named like markup.
EXTRA = {
    "broken.py": "import mindspore as ms\n\n\ndef construct(self, x:\n    return x\n",
    "unsafe_receiver.py": """\
import mindspore as ms
from mindspore import nn


class Swap(nn.Cell):
    def __init__(self):
        super().__init__()
        self.a = ms.Parameter(ms.Tensor(1.0), name="a")

    def construct(self, x, p):
        p.set_data(x)
        self.a.set_data(x, slice_shape=True)
        return x
""",
    "suppressed.py": """\
import mindspore as ms
import numpy as np
from mindspore import nn


class Net(nn.Cell):
    def construct(self, x):
        a = ms.Tensor(np.ones((x.shape[0], 2)), ms.float32)  # graphmend: ignore[GM101]
        d = x * 2  # graphmend: ignore[GM101]
        return a, d
""",
    "x<i>y.py": """\
import mindspore as ms
from mindspore import nn


class Evil(nn.Cell):
    def __init__(self):
        super().__init__()
        self.p = ms.Parameter(ms.Tensor(1.0), name="p")

    def construct(self, x):
        self.p.set_data(x)  # </script><b>bold</b> & "quotes"
        return x
""",
}
MARKUP_COMMENT = '# </script><b>bold</b> & "quotes"'
STATUS = {"safe": "fixed", "unsafe": "unsafe", None: "manual"}


@dataclass
class Written:
    project: Path
    html: Path
    run: subprocess.CompletedProcess


@dataclass
class Page:
    dom: Node
    requests: list[str]  # URLs the page itself asked the network for


@pytest.fixture(scope="module")
def written(tmp_path_factory) -> Written:
    project = tmp_path_factory.mktemp("report") / "project"
    shutil.copytree(ROOT / "examples", project)
    for name, text in EXTRA.items():
        (project / name).write_text(text)
    html = project.parent / "out.html"
    run = gm("report", str(project), "-o", str(html), "--no-cache", cwd=project.parent)
    return Written(project, html, run)


@pytest.fixture(scope="module")
def page(written: Written, tmp_path_factory) -> Page:
    return render(written.html, tmp_path_factory.mktemp("chromium"))


# -- the tests -----------------------------------------------------------------------------------


def test_report_is_written_and_a_file_that_does_not_parse_exits_2(written: Written, page: Page) -> None:
    assert written.run.returncode == 2, written.run.stderr
    assert f"Report written to {written.html}" in written.run.stderr
    errors = page.dom.find(id="errors")
    (row,) = errors.find_all("tr")
    assert row.attrs["data-path"].endswith("broken.py")
    assert "cannot parse" in row.text()
    assert "'(' was never closed" in row.text()  # CPython's own message
    assert "broken.py:4:14" in row.text()
    assert row.text().count("def construct(self, x:") >= 1  # the source line it blames
    assert total(page, "errors") == 1


def test_summary_counts_match_what_check_finds(written: Written, page: Page) -> None:
    check = gm("check", str(written.project), "--format", "json", "--no-cache", cwd=written.project.parent)
    expected = Counter((f["code"], STATUS[f["fix"]["applicability"] if f["fix"] else None])
                       for f in json.loads(check.stdout))  # fmt: skip
    codes = sorted({code for code, _ in expected})
    rows = {r.attrs["data-rule"]: r for r in page.dom.find(id="summary").find_all("tr", **{"data-rule": None})}
    assert sorted(rows) == [*codes, "total"]
    for code in codes:
        counts = {s: expected[code, s] for s in ("fixed", "unsafe", "manual")}
        assert cells(rows[code]) == {"found": sum(counts.values()), **counts}, code
        assert rows[code].find("a").attrs["href"] == f"#rule-{code}"
        assert page.dom.find(id=f"rule-{code}") is not None  # the documentation it links to
    assert cells(rows["GM201"])["unsafe"] == 1 and cells(rows["GM000"])["fixed"] == 1
    totals = cells(rows["total"])
    assert totals["found"] == sum(expected.values())
    for key in ("found", "fixed", "unsafe", "manual"):
        assert total(page, key) == totals[key]
    assert total(page, "files") == len(list(written.project.glob("*.py")))


def test_per_directory_counts_add_up_to_the_totals(written: Written, page: Page) -> None:
    rows = page.dom.find(id="directories").find_all("tr", **{"data-dir": None})
    assert [r.attrs["data-dir"] for r in rows] == [str(written.project)]  # every file of the fixture is in one
    counts = cells(rows[0])
    assert counts["files"] == total(page, "files") == len(list(written.project.glob("*.py")))
    for key in ("found", "fixed", "unsafe", "manual"):
        assert counts[key] == total(page, key), key
    # the report writes nothing: what `fix` would change is "fixable", not "fixed"
    assert page.dom.find("a", **{"data-total": "fixed"}).find(cls="label").text() == "fixable"
    files = page.dom.find(id="files").find_all("details", cls="file")
    assert counts["with findings"] == sum(1 for f in files if f.find("tr", cls="finding") is not None)
    summary = page.dom.find(id="summary")
    bars = [b.attrs["style"] for b in summary.find_all("span", cls="bar")]  # one per rule, the largest full
    assert "width:100%" in bars and len(bars) == len(summary.find_all("tr", **{"data-rule": None})) - 1


def test_a_shared_link_filters_the_findings_by_rule_and_fix(written: Written, tmp_path) -> None:
    """`report.html#rule=GM201&fix=unsafe`: the page's script shows only those findings, and only the files
    that have one (Chromium ran the script before dumping the DOM)."""
    dom = parse(chromium(written.html, tmp_path, "--dump-dom", fragment="#rule=GM201&fix=unsafe").stdout)
    rows = dom.find(id="files").find_all("tr", cls="finding")
    shown = [(r.attrs["data-code"], r.attrs["data-status"]) for r in rows if "hidden" not in r.attrs]
    assert shown == [("GM201", "unsafe")]  # the summary counts one
    assert len(rows) >= 10  # the others are there, hidden
    files = dom.find(id="files").find_all("details", cls="file")
    visible = [f.attrs["data-path"] for f in files if "display: none" not in f.attrs.get("style", "")]
    assert len(visible) == 1 and len(files) > 5
    everything = parse(chromium(written.html, tmp_path, "--dump-dom").stdout)  # no fragment: nothing hidden
    assert not [r for r in everything.find(id="files").find_all("tr", cls="finding") if "hidden" in r.attrs]


def test_each_file_shows_its_findings_and_the_diff_of_its_fixes(written: Written, page: Page) -> None:
    diff = gm("fix", "--diff", "--no-cache", str(written.project), cwd=written.project.parent).stdout
    changed = _split_diff(diff)
    assert len(changed) >= 4  # the three examples and x<i>y.py
    files = {d.attrs["data-path"]: d for d in page.dom.find_all("details", cls="file")}
    for path, lines in changed.items():
        rows = files[path].find("div", cls="diff").find_all("tr")
        shown = [
            (r.attrs["class"], r.find("td", cls="text").text()) for r in rows if r.attrs["class"] in ("add", "del")
        ]
        assert shown == lines, path
    suppressed = findings(files[str(written.project / "suppressed.py")])
    assert suppressed == [("9:20", "GM000", "fixed")]  # the used suppression hides its GM101; a stale one is fixable
    receiver = files[str(written.project / "unsafe_receiver.py")]
    assert findings(receiver) == [("11:9", "GM201", "unsafe"), ("12:9", "GM201", "manual")]
    assert receiver.find("div", cls="diff") is None  # nothing is fixed without --unsafe-fixes
    assert "p.set_data(x)" in receiver.find("code", cls="src").text()
    batch = files[str(written.project / "batch_renorm.py")]
    assert ("22:9", "GM201", "fixed") in findings(batch)


def test_user_code_is_escaped(written: Written, page: Page) -> None:
    evil = str(written.project / "x<i>y.py")
    (section,) = [d for d in page.dom.find_all("details", cls="file") if d.attrs["data-path"] == evil]
    assert section.find("summary").text().strip().startswith(evil)
    texts = [r.text() for r in section.find_all("td", cls="text")]
    assert any(MARKUP_COMMENT in t for t in texts)
    assert not page.dom.find_all("b") and not page.dom.find_all("i")
    assert len(page.dom.find_all("script")) == 1  # the page's own filter, nothing else
    assert "&lt;/script&gt;&lt;b&gt;" in written.html.read_text(encoding="utf-8")


def test_header_has_version_time_and_the_page_loads_nothing(written: Written, page: Page, tmp_path) -> None:
    header = page.dom.find("header")
    assert f"graphmend {version('graphmend')}" in header.text()
    stamp = datetime.fromisoformat(header.find("time").attrs["datetime"])
    assert abs((datetime.now().astimezone() - stamp).total_seconds()) < 6 * 3600  # now, not a fixed date
    for node in page.dom.iter():
        for name in ("src", "srcset", "action", "poster", "data"):
            assert name not in node.attrs, node
        assert node.attrs.get("href", "#").startswith(("#", "data:")), node
    style = " ".join(s.text() for s in page.dom.find_all("style"))
    assert "url(" not in style and "@import" not in style
    assert page.requests == []
    # the same check sees a page that does load something
    leak = tmp_path / "leak.html"
    leak.write_text('<img src="http://leak.invalid/x.png"><link rel=stylesheet href="https://leak.invalid/a.css">')
    assert sorted(render(leak, tmp_path / "chromium").requests) == ["http://leak.invalid/x.png",
                                                                    "https://leak.invalid/a.css"]  # fmt: skip


def test_screenshot(written: Written, tmp_path) -> None:
    from PIL import Image

    shot = tmp_path / "shot.png"
    chromium(written.html, tmp_path, f"--screenshot={shot}", "--window-size=1280,2000")
    with Image.open(shot) as image:
        assert image.size == (1280, 2000)
        colors = image.convert("RGB").getcolors(maxcolors=1 << 24)
    assert len(colors) > 100  # text, diff and badge colors: not a blank or a one-color page
    assert max(count for count, _ in colors) < 0.9 * 1280 * 2000
    # for a reviewer: the page and what Chromium drew, kept after the run (`make test` names them at the end)
    ARTIFACTS.mkdir(exist_ok=True)
    shutil.copy(shot, ARTIFACTS / "report-screenshot.png")
    shutil.copy(written.html, ARTIFACTS / "report.html")


def test_verify_table_from_a_real_report(tmp_path) -> None:
    from graphmend.verify import verify

    path = ROOT / "examples" / "batch_renorm.py"
    rewritten = graphmend.fix_source(path.read_text(), str(path)).output
    report = verify(path, rewritten, "GrowingClip", {}, ["float32[B,3,4,4]"])
    result = process_source(str(path), path.read_bytes(), select_rules(), fix=True)
    verifications = [("batch_renorm.py:GrowingClip", report), ("other.py:Head", "no Cell named Head")]
    html = tmp_path / "verified.html"
    html.write_text(render_report([result], verifications), encoding="utf-8")
    dom = render(html, tmp_path / "chromium").dom
    card = dom.find("div", **{"data-cell": "batch_renorm.py:GrowingClip"})
    assert "pass" in card.find("h3").text()
    rows = card.find_all("tr", **{"data-check": None})
    assert [(r.attrs["data-check"], r.attrs["data-version"]) for r in rows] == [
        (c, v) for c in ("graph", "strict", "dynamic", "export") for v in ("before", "after")
    ]
    for row in rows:
        assert row.attrs["data-passed"] == ("true" if row.attrs["data-version"] == "after" else "false")
    before_graph = rows[0].find("td", cls="problem").text()
    assert "set_data" in before_graph and "batch_renorm.py:22" in before_graph
    assert re.fullmatch(r"\d+\.\d\d", rows[1].find_all("td", cls="n")[2].text())  # compile seconds
    assert "no Cell named Head" in dom.find("div", **{"data-cell": "other.py:Head"}).text()
    assert total(Page(dom, []), "verified") == 1


# -- running graphmend and Chromium --------------------------------------------------------------


def gm(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200"}
    return subprocess.run([GRAPHMEND, *args], cwd=cwd, capture_output=True, text=True, env=env, timeout=900)


def chromium(page: Path, tmp: Path, *args: str, fragment: str = "") -> subprocess.CompletedProcess:
    """Headless Chromium on a file (at `fragment`, e.g. `#rule=GM101`); host names resolve to nothing, so the
    test never touches the network."""
    command = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run",
               f"--user-data-dir={tmp / 'profile'}", "--host-resolver-rules=MAP * ~NOTFOUND", *args,
               page.as_uri() + fragment]  # fmt: skip
    return subprocess.run(command, capture_output=True, text=True, timeout=600, check=True)


def render(html: Path, tmp: Path) -> Page:
    """The DOM Chromium built for `html`, and the network requests the page made (from Chromium's net log)."""
    tmp.mkdir(parents=True, exist_ok=True)
    netlog = tmp / "netlog.json"
    dumped = chromium(html, tmp, "--dump-dom", f"--log-net-log={netlog}")
    return Page(parse(dumped.stdout), page_requests(netlog))


def page_requests(netlog: Path) -> list[str]:
    """URLs requested on behalf of a file:// page; Chromium's own pings have no such isolation key."""
    log = json.loads(netlog.read_text())
    start = log["constants"]["logEventTypes"]["URL_REQUEST_START_JOB"]
    return [
        e["params"]["url"]
        for e in log["events"]
        if e["type"] == start and "file://" in e.get("params", {}).get("network_isolation_key", "")
    ]


# -- reading the DOM -----------------------------------------------------------------------------

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


@dataclass(eq=False)
class Node:
    tag: str
    attrs: dict[str, str]
    parent: Node | None = None
    children: list[Node | str] = field(default_factory=list)

    def iter(self) -> Iterator[Node]:
        for child in self.children:
            if isinstance(child, Node):
                yield child
                yield from child.iter()

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def find_all(self, tag: str | None = None, cls: str | None = None, **attrs: str | None) -> list[Node]:
        """Descendants by tag, class, and attributes (value None: the attribute is present)."""
        return [
            n
            for n in self.iter()
            if (tag is None or n.tag == tag)
            and (cls is None or cls in n.attrs.get("class", "").split())
            and all(k in n.attrs and (v is None or n.attrs[k] == v) for k, v in attrs.items())
        ]

    def find(self, tag: str | None = None, cls: str | None = None, **attrs: str | None) -> Node | None:
        found = self.find_all(tag, cls, **attrs)
        return found[0] if found else None

    def __repr__(self) -> str:
        return f"<{self.tag} {self.attrs}>"


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = self.current = Node("#document", {})

    def handle_starttag(self, tag, attrs) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs}, self.current)
        self.current.children.append(node)
        if tag not in VOID:
            self.current = node

    def handle_startendtag(self, tag, attrs) -> None:
        self.current.children.append(Node(tag, {k: v or "" for k, v in attrs}, self.current))

    def handle_endtag(self, tag) -> None:
        node = self.current
        while node.parent is not None and node.tag != tag:
            node = node.parent
        if node.parent is not None:
            self.current = node.parent

    def handle_data(self, data) -> None:
        self.current.children.append(data)


def parse(markup: str) -> Node:
    builder = _Builder()
    builder.feed(markup)
    builder.close()
    return builder.root


def total(page: Page, key: str) -> int:
    return int(page.dom.find("a", **{"data-total": key}).find(cls="value").text())


def cells(row: Node) -> dict[str, int]:
    return {td.attrs["data-count"]: int(td.text()) for td in row.find_all("td", **{"data-count": None})}


def findings(section: Node) -> list[tuple[str, str, str]]:
    return [
        (r.find("td", cls="loc").text(), r.attrs["data-code"], r.attrs["data-status"])
        for r in section.find_all("tr", cls="finding")
    ]


def _split_diff(diff: str) -> dict[str, list[tuple[str, str]]]:
    """`graphmend fix --diff` output → per file, its removed and added lines in order."""
    files: dict[str, list[tuple[str, str]]] = {}
    current: list[tuple[str, str]] = []
    for line in diff.splitlines():
        if line.startswith("--- a/"):
            current = files.setdefault(line[len("--- a/") :], [])
        elif line.startswith("+++ b/") or line.startswith("@@"):
            continue
        elif line and line[0] in "+-":
            current.append(("add" if line[0] == "+" else "del", line[1:]))
    return files
