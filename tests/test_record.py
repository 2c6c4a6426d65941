"""`graphmend record -- COMMAND`, then `verify --recorded` and `fix --verify --recorded`, on a real project.

Real processes throughout: the recorder runs inside the user's own interpreter (a script that sets
GRAPH_MODE, builds Cells and calls them), MindSpore compiles in the verifier's workers, and what the
recording holds is read from the files it wrote.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

GRAPHMEND = str(Path(sys.executable).parent / "graphmend")

LAYERS = '''\
import numpy as np
import mindspore as ms
from mindspore import nn, Tensor


class Config:
    width = 4


class Scale(nn.Cell):
    """Changed by the fix (GM101): host numpy in construct."""

    def __init__(self, dim, act=nn.ReLU):
        super().__init__()
        self.dim = dim
        self.act = act()
        self.w = ms.Parameter(Tensor(np.linspace(0.5, 2.0, dim).astype(np.float32)))

    def construct(self, x):
        y = Tensor(np.zeros((x.shape[0], self.dim), np.float32))
        return self.act(x * self.w + y)


class Block(nn.Cell):
    """Not changed by the fix: recorded, never verified."""

    def __init__(self, inner):
        super().__init__()
        self.inner = inner
        self.dense = nn.Dense(4, 4)

    def construct(self, x, scale=1.0):
        return self.inner(self.dense(x)) * scale


class Configured(nn.Cell):
    """Changed by the fix, but built from a Config object: recorded, not rebuilt."""

    def __init__(self, cfg):
        super().__init__()
        self.width = cfg.width

    def construct(self, x):
        return x + Tensor(np.ones((1, self.width), np.float32))


class Wide(nn.Cell):
    """Changed by the fix; called with an input too large to keep whole."""

    def construct(self, x):
        return x * Tensor(np.full((1, x.shape[1]), 2.0, np.float32))


def unused_helper():
    return 0


class Never(nn.Cell):
    """Changed by the fix, never called by the script."""

    def construct(self, x):
        return x + Tensor(np.ones((x.shape[0], 2), np.float32))
'''

SCRIPT = """\
import sys
import numpy as np
import mindspore as ms
from pkg.layers import Block, Config, Configured, Scale, Wide

ms.set_context(mode=ms.GRAPH_MODE)  # the recorder keeps it in PyNative
net = Block(Scale(4, act=ms.nn.Tanh))
rng = np.random.default_rng(0)
for batch in (2, 3):
    print("block", net(ms.Tensor(rng.standard_normal((batch, 4)).astype(np.float32)), scale=2.0).shape)
print("configured", Configured(Config())(ms.Tensor(np.ones((2, 4), np.float32))).shape)
print("wide", Wide()(ms.Tensor(rng.uniform(-3, 5, (64, 1024)).astype(np.float32))).shape)
sys.exit(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("record") / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "layers.py").write_text(LAYERS)
    (root / "run.py").write_text(SCRIPT)
    return root


def _record(root: Path, out: Path, *flags: str, code: int = 0) -> subprocess.CompletedProcess:
    return subprocess.run([GRAPHMEND, "record", "-o", str(out), *flags, "--", sys.executable, "run.py", str(code)],
                          cwd=root, capture_output=True, text=True, timeout=600)  # fmt: skip


@pytest.fixture(scope="module")
def recording(project: Path) -> Path:
    """A recording whose arrays are bounded at 0.2 MB: Wide's 64x1024 float32 input (0.26 MB) is sampled."""
    out = project.parent / "rec"
    done = _record(project, out, "--max-array-mb", "0.2")
    assert done.returncode == 0, done.stderr
    return out


def _cells(folder: Path) -> dict:
    (index,) = folder.glob("cells-*.json")
    return json.loads(index.read_text())["cells"]


def test_record_runs_the_command_and_says_what_it_recorded(project, recording):
    cells = _cells(recording)
    assert sorted(cells) == ["pkg/layers.py:Block", "pkg/layers.py:Configured", "pkg/layers.py:Scale",
                             "pkg/layers.py:Wide"]  # fmt: skip
    scale = cells["pkg/layers.py:Scale"]
    assert scale["calls"] == 2 and scale["module"] == "pkg.layers"
    assert [s["signature"] for s in scale["samples"]] == ["eval float32[2,4]", "eval float32[3,4]"]
    init = scale["samples"][0]["init"]
    assert init == {"args": [{"v": 4}], "kwargs": {"act": {"ref": "mindspore.nn.layer.activation:Tanh"}}}
    block = cells["pkg/layers.py:Block"]["samples"][0]
    assert block["signature"] == "eval float32[2,4], scale=float:2.0"
    assert block["init"]["args"][0]["cell"] == "pkg.layers:Scale"  # a nested Cell, by its own arguments
    assert sorted(block["params"]) == ["dense.bias", "dense.weight", "inner.w"]  # relative to the instance
    weights = np.load(recording / "arrays" / scale["samples"][0]["params"]["w"]["tensor"]["file"])
    np.testing.assert_array_equal(weights, np.linspace(0.5, 2.0, 4).astype(np.float32))
    configured = cells["pkg/layers.py:Configured"]["samples"][0]
    assert configured["init"] is None
    assert (
        configured["init_problem"]
        == "a constructor argument cannot be rebuilt: argument 1 (cfg) is a pkg.layers.Config object"
    )
    config = json.loads((recording / "recording.json").read_text())
    assert config["command"][-2:] == ["run.py", "0"]


def test_a_huge_input_is_sampled_not_stored(recording):
    (sample,) = _cells(recording)["pkg/layers.py:Wide"]["samples"]
    (arg,) = sample["args"]
    described = arg["tensor"]
    assert "file" not in described and described["shape"] == [64, 1024]
    assert described["sampled"] == "0.3 MB, over the 0.2 MB kept of one array"
    stats = described["stats"]
    assert -3 <= stats["min"] < -2.9 and 4.9 < stats["max"] <= 5 and 0.9 < stats["mean"] < 1.1
    assert max(f.stat().st_size for f in (recording / "arrays").iterdir()) < 200_000


def test_the_class_cap_drops_parameters_and_says_so(project, tmp_path):
    out = tmp_path / "rec"
    done = _record(project, out, "--max-cell-mb", "0.00005")  # 50 bytes: Block's Parameters (96) do not fit
    assert done.returncode == 0, done.stderr
    block = _cells(out)["pkg/layers.py:Block"]["samples"][0]
    assert block["params"] is None
    assert block["params_note"] == ("Parameters not recorded: 96 bytes would take this class over its 5e-05 MB; "
                                    "the verifier builds them from the constructor")  # fmt: skip
    assert "file" in block["args"][0]["tensor"]  # its 32-byte input fit first


def test_record_keeps_the_command_exit_code_and_what_ran(project, tmp_path):
    done = _record(project, tmp_path / "rec", code=3)
    assert done.returncode == 3
    assert "exit 3: what ran before it ended is recorded" in done.stderr
    assert "pkg/layers.py:Scale" in "".join(_cells(tmp_path / "rec"))


def test_record_refuses_a_folder_that_is_not_a_recording(project, tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    done = _record(project, tmp_path)
    assert done.returncode == 2
    assert "holds files and no recording" in done.stderr
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_verify_recorded_proves_each_touched_cell_the_recording_reached(project, recording):
    done = subprocess.run([GRAPHMEND, "verify", "--recorded", str(recording), "--format", "json", "."],
                          cwd=project, capture_output=True, text=True, timeout=900)  # fmt: skip
    assert done.returncode == 0, done.stderr
    documents = {d["cell"]: d for d in json.loads(done.stdout)}
    assert set(documents) == {"pkg/layers.py:Scale", "pkg/layers.py:Configured", "pkg/layers.py:Wide",
                              "pkg/layers.py:Never"}  # fmt: skip
    scale = documents["pkg/layers.py:Scale"]
    assert scale["status"] == "proven"
    assert scale["checks"] == ["graph", "strict", "dynamic", "export"]  # batch 2 and 3 were both recorded
    assert scale["inputs"] == ["recorded call: float32[2,4]", "dynamic check also calls with float32[3,4]"]
    wide = documents["pkg/layers.py:Wide"]
    assert wide["status"] == "proven"
    assert wide["notes"][0].startswith("inputs drawn from their recorded statistics: float32[64,1024]")
    assert documents["pkg/layers.py:Configured"]["status"] == "not verified"
    assert "argument 1 (cfg) is a pkg.layers.Config object" in documents["pkg/layers.py:Configured"]["why"]
    assert documents["pkg/layers.py:Never"]["why"].startswith("not reached by the recording")
    assert "verified 4 Cell(s): 2 proven, 0 failed, 0 could not run, 2 not verified from the recording" in done.stderr


def test_fix_verify_recorded_writes_what_it_proved(project, recording, tmp_path):
    work = tmp_path / "work"
    subprocess.run(["cp", "-r", str(project), str(work)], check=True)
    done = subprocess.run([GRAPHMEND, "fix", "--verify", "--recorded", str(recording), "--no-cache", "pkg"],
                          cwd=work, capture_output=True, text=True, timeout=900)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Fixed 4 finding(s) in 1 file(s); 0 remaining" in done.stderr
    assert "not verified: pkg/layers.py:Never: not reached by the recording" in done.stderr
    assert "ops.zeros" in (work / "pkg" / "layers.py").read_text()
    assert done.stdout.count("PASS: every requested check passes after the rewrite") == 2


def test_recorded_needs_verify_and_a_recording(project, tmp_path):
    alone = subprocess.run([GRAPHMEND, "fix", "--recorded", str(tmp_path), "--diff", "."], cwd=project,
                           capture_output=True, text=True, timeout=120)  # fmt: skip
    assert alone.returncode == 2 and "--recorded goes with --verify" in alone.stderr
    missing = subprocess.run([GRAPHMEND, "verify", "--recorded", str(tmp_path), "."], cwd=project,
                             capture_output=True, text=True, timeout=120)  # fmt: skip
    assert missing.returncode == 2 and "no recording there" in missing.stderr


def test_the_hook_hides_no_sitecustomize(tmp_path):
    """A sitecustomize the user's environment has still runs under the recorder."""
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "sitecustomize.py").write_text("import os\nos.environ['THEIRS_RAN'] = '1'\n")
    script = tmp_path / "show.py"
    script.write_text("import os\nprint(os.environ.get('THEIRS_RAN'))\n")
    env = dict(os.environ, PYTHONPATH=str(theirs))
    done = subprocess.run([GRAPHMEND, "record", "-q", "-o", str(tmp_path / "rec"), "--", sys.executable, str(script)],
                          cwd=tmp_path, capture_output=True, text=True, env=env, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "1"


def test_touched_cells_are_read_from_both_sources():
    from graphmend.verify.touched import touched

    before = textwrap.dedent("""\
        from mindspore import nn
        def helper(x):
            return x + 1
        class Plain(nn.Cell):
            def construct(self, x):
                return x
        class UsesHelper(nn.Cell):
            def construct(self, x):
                return helper(x)
        class Changed(nn.Cell):
            def construct(self, x):
                return x * 2
        class Child(Changed):
            pass
        class NotACell:
            def run(self):
                return 1
        """)
    after = before.replace("x + 1", "x + 2").replace("x * 2", "x * 3").replace("return 1", "return 2")
    found = [(t.cell, t.how) for t in touched(before, "import os\n" + after)]
    assert found == [("UsesHelper", "calls helper"), ("Changed", "changed"), ("Child", "inherits from Changed")]
    assert touched(before, before) == []


HELPERS = """\
from mindspore import nn


def head(x):
    c = x.shape[1]
    return x[:, : round(0.5 * c)] * 2


class Base(nn.Cell):
    def construct(self, x):
        return head(self.extra(x))

    def extra(self, x):
        return x
"""

MODEL = """\
from mindspore import nn
from pkg.helpers import head
from . import helpers as h


class UsesHead(nn.Cell):
    def construct(self, x):
        return head(x) + 1


class Child(h.Base):
    def extra(self, x):
        return x * 3


class Plain(nn.Cell):
    def construct(self, x):
        return x


def scaled(x):
    return h.head(x) * 2
"""

# two modules away from helpers.py: through model.py's function and model.py's touched Cell
APP = """\
from mindspore import nn
from pkg.model import Child, scaled


class Far(nn.Cell):
    def construct(self, x):
        return scaled(x) - 1


class Grandchild(Child):
    pass
"""

CALLS = """\
import numpy as np
import mindspore as ms
from pkg.app import Far, Grandchild
from pkg.model import Child, Plain, UsesHead

for batch in (2, 3):
    x = ms.Tensor(np.arange(batch * 4, dtype=np.float32).reshape(batch, 4))
    print(UsesHead()(x).shape, Child()(x).shape, Plain()(x).shape, Far()(x).shape, Grandchild()(x).shape)
"""


def test_a_cell_of_another_module_is_verified_with_the_helper_the_fix_changed(tmp_path):
    """Only pkg/helpers.py is fixed; pkg/model.py's Cells call its function or inherit its Cell, pkg/app.py's
    call model.py's function that calls it or inherit model.py's Cell, and the recording reached them: each is
    verified with helpers.py rewritten beside the others as they are. The old
    helper fails every check (GM303: a float slice bound), so a pass after shows the new one ran."""
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "helpers.py").write_text(HELPERS)
    (root / "pkg" / "model.py").write_text(MODEL)
    (root / "pkg" / "app.py").write_text(APP)
    (root / "calls.py").write_text(CALLS)
    done = subprocess.run([GRAPHMEND, "record", "-q", "-o", str(tmp_path / "rec"), "--", sys.executable, "calls.py"],
                          cwd=root, capture_output=True, text=True, timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stderr
    done = subprocess.run([GRAPHMEND, "verify", "--recorded", str(tmp_path / "rec"), "--format", "json",
                           "pkg/helpers.py"], cwd=root, capture_output=True, text=True, timeout=900)  # fmt: skip
    assert done.returncode == 0, done.stderr
    documents = {d["cell"]: d for d in json.loads(done.stdout)}
    assert list(documents) == ["pkg/helpers.py:Base", "pkg/model.py:UsesHead (calls pkg.helpers.head)",
                               "pkg/model.py:Child (inherits from pkg.helpers.Base)",
                               "pkg/app.py:Far (calls pkg.model.scaled)",
                               "pkg/app.py:Grandchild (inherits from pkg.model.Child)"]  # fmt: skip
    assert documents["pkg/helpers.py:Base"]["status"] == "not verified"  # only its subclass was called
    for cell in list(documents)[1:]:
        document = documents[cell]
        assert document["status"] == "proven", cell
        assert "with pkg/helpers.py as rewritten by graphmend" in document["notes"]
        passed = {(v["check"], v["version"]): v["passed"] for v in document["verdicts"]}
        assert passed == {(c, v): v == "after" for c in ("graph", "strict", "dynamic", "export")
                          for v in ("before", "after")}, cell  # fmt: skip
    assert "verified 5 Cell(s): 4 proven, 0 failed, 0 could not run, 1 not verified from the recording" in done.stderr
    assert (root / "pkg" / "helpers.py").read_text() == HELPERS  # verify writes nothing


def test_cells_of_other_modules_are_touched_through_resolved_imports():
    from graphmend.verify.touched import imported_modules, may_import, reach, through_imports

    source = textwrap.dedent("""\
        import pkg.helpers as m
        from pkg import helpers
        from ..helpers import Base as B
        from .other import head
        from ..up import *
        from mindspore import nn
        def mine(x):
            return m.head(x)
        def theirs(x):
            return head(x)
        class ByAlias(nn.Cell):
            def construct(self, x):
                return m.head(x)
        class ByModule(nn.Cell):
            def construct(self, x):
                return helpers.head(x)
        class ByOwnFunction(nn.Cell):
            def construct(self, x):
                return mine(x)
        class ByBase(B):
            pass
        class OfThatBase(ByBase):
            pass
        class ByStar(nn.Cell):
            def construct(self, x):
                return up_helper(x)
        class SameNameElsewhere(nn.Cell):
            def construct(self, x):
                return theirs(x) + head(x)
        """)
    changed = {"pkg.helpers": {"head", "Base"}, "pkg.up": {"up_helper"}, "pkg.sub.other": {"elsewhere"}}
    found = [(t.cell, t.how) for t in through_imports(source, "pkg.sub", changed)]
    assert found == [("ByAlias", "calls pkg.helpers.head"), ("ByModule", "calls pkg.helpers.head"),
                     ("ByOwnFunction", "calls pkg.helpers.head"), ("ByBase", "inherits from pkg.helpers.Base"),
                     ("OfThatBase", "inherits from ByBase"), ("ByStar", "calls pkg.up.up_helper")]  # fmt: skip
    assert [t.cell for t in through_imports(source, "", changed)] == ["ByAlias", "ByModule", "ByOwnFunction"]
    # what a module one hop further is touched through: the functions that reach a changed name, the Cells
    assert reach(source, "pkg.sub", changed)[1] == {"mine", "ByAlias", "ByModule", "ByOwnFunction", "ByBase",
                                                    "OfThatBase", "ByStar"}  # fmt: skip
    # the cheap index a run keeps per file: only modules that can reach pkg.helpers are read again
    imported = imported_modules(source, "pkg.sub")
    assert {"pkg.helpers.*", "pkg", "pkg.helpers", "pkg.helpers.Base", "pkg.sub.other.head", "pkg.up"} <= imported
    assert may_import(imported, "pkg.helpers") and may_import(imported, "pkg.up")
    assert not may_import(imported, "pkg.layers") and not may_import(imported_modules("import os\n", ""), "pkg.helpers")
    assert may_import(imported_modules("import pkg\n", ""), "pkg.helpers")  # then `pkg.helpers.head(x)`


def test_the_html_report_shows_the_recorded_verification(project, recording, tmp_path):
    page = tmp_path / "report.html"
    done = subprocess.run([GRAPHMEND, "report", "--verify", "--recorded", str(recording), "-o", str(page), "."],
                          cwd=project, capture_output=True, text=True, timeout=900)  # fmt: skip
    assert done.returncode == 0, done.stderr
    html = page.read_text()
    cards = {cell: html.split(f'data-cell="{cell}"', 1)[1].split("</div>", 1)[0]
             for cell in ("pkg/layers.py:Scale", "pkg/layers.py:Never", "pkg/layers.py:Configured")}  # fmt: skip
    assert '<span class="badge ok">pass</span>' in cards["pkg/layers.py:Scale"]
    assert "recorded call: float32[2,4]" in html
    assert '<span class="badge warn">not verified</span>' in cards["pkg/layers.py:Never"]
    assert "not reached by the recording" in cards["pkg/layers.py:Never"]
    assert "pkg.layers.Config object" in cards["pkg/layers.py:Configured"]
    assert 'data-total="unverified"><span class="value">2</span>' in html


def test_every_python_process_of_the_command_is_recorded_and_merged(project, tmp_path):
    """A command whose script starts another interpreter: each process writes its own index; reading merges."""
    (project / "twice.py").write_text(
        "import subprocess, sys\n"
        "import numpy as np\n"
        "import mindspore as ms\n"
        "from pkg.layers import Scale\n"
        "Scale(4)(ms.Tensor(np.ones((2, 4), np.float32)))\n"
        "child = 'import numpy as np, mindspore as ms; from pkg.layers import Scale; "
        "Scale(4)(ms.Tensor(np.ones((5, 4), np.float32)))'\n"
        "subprocess.run([sys.executable, '-c', child], check=True)\n"
    )
    out = tmp_path / "rec"
    done = subprocess.run([GRAPHMEND, "record", "-o", str(out), "--", sys.executable, "twice.py"], cwd=project,
                          capture_output=True, text=True, timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert len(list(out.glob("cells-*.json"))) == 2
    assert "from 2 process(es)" in done.stderr
    from graphmend.verify.recording import Recording

    scale = Recording.load(out).cells["pkg.layers:Scale"]
    assert scale["calls"] == 2
    assert sorted(s["signature"] for s in scale["samples"]) == ["eval float32[2,4]", "eval float32[5,4]"]
    assert not list((out / "arrays").glob("*.tmp"))


def test_a_bad_tree_leaves_the_earlier_recording_where_it_was(project, recording, tmp_path):
    out = tmp_path / "rec"
    subprocess.run(["cp", "-r", str(recording), str(out)], check=True)
    before = sorted(p.name for p in out.rglob("*"))
    done = _record(project, out, "--tree", str(tmp_path / "missing"))
    assert done.returncode == 2 and "no such directory" in done.stderr
    assert sorted(p.name for p in out.rglob("*")) == before
