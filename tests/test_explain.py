"""`graphmend explain` on real MindSpore tracebacks.

Every traceback here was printed by MindSpore 2.10 a moment before, in this test run: each rule's hostile
Cell (graphmend.evidence CELLS) is called from a small script in the configuration that breaks it, all in
one MindSpore child process (tests/tracebacks.py). Nothing is stored between runs.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from tracebacks import capture, console

from graphmend import RULES
from graphmend.evidence import CELLS
from graphmend.explain import explain, parse_log
from graphmend.session import Options

GRAPHMEND = str(Path(sys.executable).with_name("graphmend"))
UNEXPLAINED = "tests/explain_cases/unsupported_try.py:Guarded"
# one run per declared message, in the first configuration it was measured in
JOBS = [(code, min(m.targets, key=lambda t: list(type(t)).index(t)).value)
        for code, rule in RULES.items() for m in rule.EXPLAINS]  # fmt: skip
# where MindSpore's own line is not the finding's: the fix is elsewhere in the same file
ELSEWHERE = {
    "GM205": "the error names the call of the Cell given the weight norm; the fix replaces the import of `weight_norm`",
    "GM203": "the error names the loop over `self.layers` in construct; the list is built in __init__",
    "GM610": "the error names the call `self.double(x)` in construct; the fix is the method's decorator",
    "GM612": "the error names the read of `y` after the `if`; the fix binds it before the `if`",
}


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> tuple[Path, dict[tuple[str, str], str]]:
    """A directory with the hostile Cells' files, the scripts that ran them, and what each printed (its
    console: MindSpore's log records on stderr, then the traceback)."""
    workdir = tmp_path_factory.mktemp("project")
    return workdir, console([*JOBS, (UNEXPLAINED, "graph")], workdir)


def gm(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_COLOR": "1"}
    return subprocess.run([GRAPHMEND, *args], cwd=cwd, input=stdin, capture_output=True, text=True, env=env,
                          timeout=300)  # fmt: skip


def test_every_rule_with_a_fix_and_a_measured_error_is_run():
    codes = {code for code, _ in JOBS}
    assert {"GM201", "GM303", "GM502", "GM507"} <= codes
    assert all(CELLS[code] is not None for code in codes)


@pytest.mark.parametrize("job", JOBS, ids=[f"{c}-{k}" for c, k in JOBS])
def test_a_real_traceback_is_explained_by_its_rule_at_its_line(project, job):
    workdir, tracebacks = project
    code, check = job
    text = tracebacks[job]
    assert text, f"{code}'s Cell ran under {check}: nothing to explain"
    errors = parse_log(text)
    assert len(errors) == 1, [e.headline for e in errors]
    [item] = explain(errors, Options(cache=False), root=workdir)
    assert item.finding is not None, f"{code} {check}: {item.why_not}\n{text}"
    assert item.finding.code == code
    assert item.finding.path == Path(CELLS[code].path).name
    if item.frame.source == "construct" and code not in ELSEWHERE:
        f = item.finding  # the finding's span and the lines MindSpore names overlap
        assert f.line <= item.frame.end_line and item.frame.line <= f.end_line, (f, item.frame)
    if code == "GM612":  # of the three findings near the read, the one about the name MindSpore names
        assert "`y`" in item.finding.message and item.finding.line == 12, item.finding
    if RULES[code].FIX != "none" and item.finding.fix:
        assert item.diff.startswith(f"--- a/{item.finding.path}\n")


def _noisy_log(tracebacks: dict[tuple[str, str], str], jobs: list[tuple[str, str]]) -> str:
    """A training log around real tracebacks: progress, logger records, Chinese text, ANSI colours."""
    red, reset = "\x1b[31;1m", "\x1b[0m"
    parts = []
    for epoch, job in enumerate(jobs):
        parts.append(f"\x1b[32m[INFO]\x1b[0m epoch {epoch} 开始训练 (start of training)\n")
        parts.append("step 10/100 loss=0.693 ███▌      35%\r step 20/100 loss=0.512 █████▌    55%\n")
        parts.append("[WARNING] ME(4242:1,MainProcess):2026-12-01-12:00:00.000.000 [mindspore/run.py:1] 图模式编译\n")
        colored = "\n".join(f"{red}{line}{reset}" if line and not line.startswith(" ") else line
                            for line in tracebacks[job].splitlines())  # fmt: skip
        parts.append(colored + "\n")
        parts.append("训练失败，请检查网络定义。Training failed, see above.\n\n")
    return "".join(parts)


def test_a_log_with_several_errors_noise_chinese_and_colours(project):
    workdir, tracebacks = project
    jobs = [("GM201", "graph"), (UNEXPLAINED, "graph"), ("GM303", "graph"), ("GM106", "strict"), ("GM510", "graph")]
    # GM606 explains `try` (it declares "Unsupported statement 'Try'"): without it, that error is one no
    # rule explains, which is what this log needs among the others
    done = gm("explain", "--ignore", "GM606", "--output-format", "json", cwd=workdir,
              stdin=_noisy_log(tracebacks, jobs))  # fmt: skip
    assert done.returncode == 1, done.stderr  # one of them is not explained
    report = json.loads(done.stdout)["errors"]
    codes = [e["finding"]["code"] if e["finding"] else None for e in report]
    assert codes == ["GM201", None, "GM303", "GM106", "GM510"]
    unexplained = report[1]
    assert unexplained["error"]["message"] == "Unsupported statement 'Try'."
    assert unexplained["why_not"].startswith("GM606 declares this message, but found nothing in unsupported_try.py")
    assert (unexplained["location"]["filename"], unexplained["user_line"]) == ("unsupported_try.py", "try:")
    # what MindSpore documents about it, from the measured limits table (the row whose case raised it)
    assert (unexplained["documented"]["row"], unexplained["documented"]["construct"]) == (1, "`try`/`except`")
    assert [e["documented"] for e in report if e["finding"]] == [None] * 4
    assert report[0]["error"]["analyze_fail"].endswith("analyze_fail.ir")
    # GM510 under GRAPH: only MindSpore's [ERROR] record names the graph's line (torch.cat); the traceback
    # after it names the script
    assert (report[4]["location"]["from"], report[4]["finding"]["location"]["row"]) == ("construct", 15)
    assert report[4]["finding"]["message"].startswith("`torch.cat`")


def test_text_output_is_checks_line_then_the_diff(project):
    workdir, tracebacks = project
    done = gm("explain", "-", cwd=workdir, stdin=tracebacks[("GM201", "graph")])
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("error 1 of 1 (log line ")
    assert (
        "RuntimeError: Failed to compile in GRAPH_MODE because the 'Parameter' object's method 'set_data'" in lines[0]
    )
    assert lines[1] == "  at gm201_set_data.py:14 (The Traceback of Net Construct Code)"
    assert lines[2].startswith("gm201_set_data.py:14:9: GM201 [*] `self.limit.set_data(...)`")
    assert "-        self.limit.set_data(self.limit + 0.25)" in lines
    assert "+        ops.assign(self.limit, self.limit + 0.25)" in lines
    assert "1 error(s): 1 explained, 0 not explained." in done.stderr


def test_an_error_no_rule_explains_quotes_the_documented_limit(project):
    workdir, tracebacks = project
    done = gm("explain", "--ignore", "GM606", "-", cwd=workdir, stdin=tracebacks[(UNEXPLAINED, "graph")])
    assert done.returncode == 1, done.stderr
    assert "  not explained: GM606 declares this message, but found nothing in unsupported_try.py" in done.stdout
    assert "  documented: MindSpore's static-graph limits, row 1: `try`/`except`\n" in done.stdout
    assert "    measured on MindSpore 2.10: error in graph, strict, dynamic, export\n" in done.stdout
    assert "    graphmend: GM606 unsupported-syntax (report) (docs/limits.md)\n" in done.stdout


def test_documented_limits_match_messages_whatever_their_shapes():
    from graphmend.explain import Error, documented

    def error(headline: str) -> Error:
        return Error("RuntimeError", headline, headline, ())

    # measured: "Exceed function call depth limit 1000, (function call depth: 1001, simulate call depth: 1000)."
    deeper = "Exceed function call depth limit 2000, (function call depth: 2001, simulate call depth: 2000)."
    assert documented(error(deeper))["row"] == 36
    assert documented(error("Unsupported statement 'Try'."))["row"] == 1
    assert documented(error("Unsupported statement 'Match'."))["row"] == 2  # the statement's name matters
    assert documented(error("Unsupported statement 'With'.")) is None  # not row 1's `try`
    assert documented(error("math domain error")) is None


def test_bad_input_is_exit_2(tmp_path):
    (tmp_path / "train.log").write_text("epoch 1 loss 0.5\n训练完成\n", encoding="utf-8")
    assert gm("explain", "train.log", cwd=tmp_path).returncode == 2
    missing = gm("explain", "missing.log", cwd=tmp_path)
    assert missing.returncode == 2 and "missing.log: cannot read" in missing.stderr


def test_fix_writes_the_explained_fix_and_the_cell_then_compiles(project, tmp_path):
    _, tracebacks = project
    first = capture([("GM303", "graph"), ("GM502", "graph")], tmp_path)
    log = first[("GM303", "graph")] + "\n" + first[("GM502", "graph")]
    done = gm("explain", "--fix", cwd=tmp_path, stdin=log)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "fixed 2 in 2 file(s)" in done.stderr
    assert "int(round(self.rate * c))" in (tmp_path / "gm303_round_slice_bound.py").read_text()
    again = capture([("GM303", "graph")], tmp_path)
    assert again[("GM303", "graph")] == ""  # compiles and runs in GRAPH_MODE now


def test_a_log_from_another_machine_is_read_without_importing_the_users_code(project, tmp_path):
    """The log names /home/someone/project/...: the file is found by its tail under the current directory,
    and parsed, never imported (its import would leave a marker)."""
    workdir, tracebacks = project
    here = tmp_path / "checkout"
    here.mkdir()
    source = (workdir / "gm201_set_data.py").read_text()
    (here / "gm201_set_data.py").write_text(source + "\nopen('IMPORTED', 'w').close()\n")
    log = tracebacks[("GM201", "graph")].replace(str(workdir), "/home/someone/project")
    done = gm("explain", "--output-format", "json", cwd=here, stdin=log)
    assert done.returncode == 0, done.stderr
    [item] = json.loads(done.stdout)["errors"]
    assert (item["finding"]["code"], item["finding"]["filename"]) == ("GM201", "gm201_set_data.py")
    assert not (here / "IMPORTED").exists() and not (tmp_path / "IMPORTED").exists()
