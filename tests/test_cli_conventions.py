"""What a ruff user expects of the command line (issue 16): findings that stream on long runs with a
progress line for logs, ruff's option names, readable output, ruff's selection rules, single-key review.

Every test runs the installed `graphmend` on real files, in a subprocess (on a pseudo-terminal where a
terminal matters)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from test_cli import FIXED, GRAPHMEND, HOSTILE, _interactive, _on_a_terminal

# a Cell with a finding `fix` cannot fix (GM202: state across calls) and one it can (GM201)
MANUAL = HOSTILE.replace(
    "mask = ms.Tensor(np.ones((x.shape[0], 4)), ms.float32)", "self.count = self.count + x\n        mask = x"
)


def gm(*args: str, cwd: Path, stdin: str | None = None, merged: bool = False, **env: str):
    """graphmend in a subprocess; `merged`: stderr into the same pipe as stdout, to see the order of both."""
    environment = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200", **env}
    return subprocess.run([GRAPHMEND, *args], cwd=cwd, input=stdin, text=True, env=environment, timeout=900,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT if merged else subprocess.PIPE)  # fmt: skip


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    for i in range(3):
        (tmp_path / f"m{i}.py").write_text(HOSTILE)
    (tmp_path / "n.py").write_text(MANUAL)
    return tmp_path


# -- item 1: findings stream, progress off a terminal ------------------------------------------------


def test_check_streams_findings_file_by_file_between_progress_lines(tree: Path) -> None:
    done = gm("check", ".", "--jobs", "1", "--no-cache", cwd=tree, merged=True, GRAPHMEND_PROGRESS_INTERVAL="0")
    assert done.returncode == 1, done.stdout
    shape = [line.split(":")[0] if not line.startswith("graphmend:") else line for line in done.stdout.splitlines()]
    # each file's findings are out before the next file is done: they stream, they do not wait for the end
    assert shape[:12] == ["m0.py", "m0.py", "graphmend: 1/4 files, 2 findings",
                          "m1.py", "m1.py", "graphmend: 2/4 files, 4 findings",
                          "m2.py", "m2.py", "graphmend: 3/4 files, 6 findings",
                          "n.py", "n.py", "graphmend: 4/4 files, 8 findings"]  # fmt: skip


def test_streamed_output_is_sorted_whatever_order_workers_finish_in(tree: Path) -> None:
    for i in range(3, 12):
        (tree / f"m{i:02}.py").write_text(HOSTILE)
    one = gm("check", ".", "--jobs", "1", "--no-cache", cwd=tree, GRAPHMEND_PROGRESS_INTERVAL="0")
    two = gm("check", ".", "--jobs", "2", "--no-cache", cwd=tree, GRAPHMEND_PROGRESS_INTERVAL="0")
    paths = [line.split(":")[0] for line in one.stdout.splitlines()]
    assert one.stdout == two.stdout and paths == sorted(paths) and len(paths) == 26
    assert two.stderr.count("graphmend: ") == 13  # a line a file, whatever order they came in


def test_fix_prints_what_each_file_has_left_as_it_is_written(tree: Path) -> None:
    done = gm("fix", ".", "--jobs", "1", "--no-cache", cwd=tree, merged=True, GRAPHMEND_PROGRESS_INTERVAL="0")
    lines = done.stdout.splitlines()
    assert lines[3].startswith("n.py:8:9: GM202 ") and lines[4] == "graphmend: 4/4 files, 8 findings", lines
    assert lines[:3] == [f"graphmend: {i}/4 files, {2 * i} findings" for i in (1, 2, 3)]
    assert (tree / "m0.py").read_text() == FIXED and done.returncode == 1


def test_no_progress_line_before_the_interval_and_none_when_quiet(tree: Path) -> None:
    slow = gm("check", ".", "--no-cache", cwd=tree, GRAPHMEND_PROGRESS_INTERVAL="100000")
    assert "graphmend: " not in slow.stderr
    quiet = gm("check", ".", "--no-cache", "-q", cwd=tree, GRAPHMEND_PROGRESS_INTERVAL="0")
    assert quiet.stderr == ""


def test_the_terminal_bar_has_a_steady_eta(tree: Path) -> None:
    screen = _on_a_terminal(tree, "check", ".", "--no-cache", "--jobs", "1")
    assert "/4 files" in screen and "eta " in screen


# -- item 3: ruff's option names ----------------------------------------------------------------------


def test_version_and_output_format_with_the_old_names_kept(tree: Path) -> None:
    from importlib.metadata import version

    assert gm("--version", cwd=tree).stdout == f"graphmend {version('graphmend')}\n"
    new = gm("check", "m0.py", "--output-format", "json", cwd=tree).stdout
    assert new == gm("check", "m0.py", "--format", "json", cwd=tree).stdout and '"code": "GM101"' in new
    for flag in ("-o", "--output-file", "--output"):
        gm("check", "m0.py", "--output-format", "sarif", flag, f"out{flag}.sarif", cwd=tree)
        assert '"ruleId": "GM101"' in (tree / f"out{flag}.sarif").read_text()
        done = gm("report", "m0.py", flag, f"report{flag}.html", "-q", cwd=tree)
        assert done.returncode == 0 and (tree / f"report{flag}.html").read_text().startswith("<!doctype html>")


def test_statistics_exit_zero_and_show_fixes(tree: Path) -> None:
    stats = gm("check", ".", "--statistics", cwd=tree)
    assert stats.stdout == "3\tGM101\t[*] numpy-constructor\n4\tGM201\t[*] set-data\n1\tGM202\t    attribute-mutation\n"
    assert stats.returncode == 1
    assert gm("check", ".", "--statistics", "--output-format", "json", cwd=tree).stdout.count('"count"') == 3
    assert gm("check", ".", "--exit-zero", cwd=tree).returncode == 0
    (tree / "broken.py").write_text("def f(:\n")
    assert gm("check", ".", "--exit-zero", cwd=tree).returncode == 2  # errors still fail
    (tree / "broken.py").unlink()
    shown = gm("fix", "--show-fixes", ".", cwd=tree).stderr
    assert "Fixed 7 finding(s):\n- m0.py:\n    1 × GM101 (numpy-constructor)\n    1 × GM201 (set-data)\n" in shown


def test_extend_select_adds_to_the_selection(tree: Path) -> None:
    (tree / "view.py").write_text(HOSTILE.replace("return x * mask", "return x.view(x.shape[0], -1)"))
    assert "GM302" not in gm("check", "view.py", cwd=tree).stdout
    both = gm("check", "view.py", "--extend-select", "GM302", cwd=tree).stdout
    assert "GM302" in both and "GM101" in both  # the default rules stay
    only = gm("check", "view.py", "--select", "GM1", "--extend-select", "GM302", cwd=tree).stdout
    assert "GM302" in only and "GM101" in only and "GM201" not in only


def test_extend_exclude_and_force_exclude_for_pre_commit(tree: Path) -> None:
    assert "m1.py" not in gm("check", ".", "--extend-exclude", "m1.py", cwd=tree).stdout
    (tree / "pyproject.toml").write_text('[tool.graphmend]\nexclude = ["m*.py"]\n')
    # pre-commit names the staged files; with --force-exclude the excluded ones are skipped...
    some = gm("check", "--force-exclude", "m0.py", "n.py", cwd=tree)
    assert some.returncode == 1 and "m0.py" not in some.stdout and "n.py:" in some.stdout
    # ...and a commit that touches only excluded files passes
    none = gm("check", "--force-exclude", "m0.py", "m1.py", cwd=tree)
    assert none.returncode == 0 and none.stdout == "" and "nothing to check" in none.stderr
    assert gm("check", "m0.py", "m1.py", cwd=tree).returncode == 2  # without it: a run that checks nothing
    hooks = (Path(__file__).resolve().parent.parent / ".pre-commit-hooks.yaml").read_text()
    assert hooks.count("--force-exclude") == 2


def test_stdin_filename_checks_and_fixes_a_buffer(tree: Path) -> None:
    (tree / "sub").mkdir()
    (tree / "sub" / "pyproject.toml").write_text('[tool.graphmend]\nignore = ["GM201"]\n')
    checked = gm("check", "--stdin-filename", "sub/model.py", cwd=tree, stdin=HOSTILE)
    assert checked.returncode == 1 and checked.stdout.startswith("sub/model.py:8:16: GM101 ")
    assert "GM201" not in checked.stdout  # the config next to the named file applies
    fixed = gm("fix", "--stdin-filename", "model.py", cwd=tree, stdin=HOSTILE)
    assert (fixed.returncode, fixed.stdout) == (0, FIXED) and not (tree / "model.py").exists()
    left = gm("fix", "--stdin-filename", "model.py", cwd=tree, stdin=MANUAL)
    assert left.returncode == 1 and "model.py:8:9: GM202" in left.stderr and "ms.ops.assign" in left.stdout
    diff = gm("check", "--diff", "--stdin-filename", "model.py", cwd=tree, stdin=HOSTILE)
    assert diff.returncode == 1 and diff.stdout.startswith("--- a/model.py\n+++ b/model.py\n")
    (tree / "pyproject.toml").write_text('[tool.graphmend]\nexclude = ["model.py"]\n')
    skipped = gm("fix", "--force-exclude", "--stdin-filename", "model.py", cwd=tree, stdin=HOSTILE)
    assert (skipped.returncode, skipped.stdout) == (0, HOSTILE)  # the buffer back, untouched


def test_show_settings(tree: Path) -> None:
    (tree / "pyproject.toml").write_text('[tool.graphmend]\nignore = ["GM402"]\nexclude = ["n.py"]\n')
    shown = gm("check", "--show-settings", "--extend-select", "GM302", ".", cwd=tree)
    assert shown.returncode == 0
    lines = shown.stdout.splitlines()
    assert f"config: {tree / 'pyproject.toml'}" in lines and "ignore: GM402" in lines and "exclude: n.py" in lines
    assert "files: 3" in lines and "GM302" in next(line for line in lines if line.startswith("rules: "))


def test_a_small_run_stays_in_process_and_a_large_one_takes_every_core(tree: Path) -> None:
    def jobs(*flags: str) -> str:
        shown = gm("check", "--show-settings", *flags, ".", cwd=tree).stdout.splitlines()
        return next(line for line in shown if line.startswith("jobs: "))

    assert jobs() == "jobs: 1"  # 3 files of a few hundred bytes: a pool would cost more than the work
    assert jobs("-j", "2") == "jobs: 2"  # asked for: always given
    (tree / "big.py").write_text(HOSTILE * (64_000 // len(HOSTILE) + 1))
    assert jobs() == f"jobs: {os.cpu_count()}"
    (tree / "big.py").write_text("x = 1\n" * 20_000)  # as large, but no graph code: only syntax-checked
    assert jobs() == "jobs: 1"


def test_check_fix_and_check_diff_are_fix(tree: Path) -> None:
    diff = gm("check", "--diff", "m0.py", cwd=tree)
    assert diff.returncode == 1 and diff.stdout == gm("fix", "--diff", "m0.py", cwd=tree).stdout
    assert (tree / "m0.py").read_text() == HOSTILE
    done = gm("check", "--fix", "m0.py", cwd=tree)
    assert done.returncode == 0 and (tree / "m0.py").read_text() == FIXED


def test_rules_by_name_and_as_json(tree: Path) -> None:
    import json

    import graphmend

    by_name = gm("rules", "constant-augassign", cwd=tree)
    assert by_name.returncode == 0 and by_name.stdout == gm("rules", "GM204", cwd=tree).stdout
    pages = json.loads(gm("rules", "--output-format", "json", cwd=tree).stdout)
    assert [p["code"] for p in pages] == list(graphmend.RULES)
    one = json.loads(gm("rules", "GM302", "--output-format", "json", cwd=tree).stdout)
    assert one["name"] == "view-minus-one" and one["default"] is False and "What it does" in one["explanation"]


# -- item 5: readable output --------------------------------------------------------------------------


def test_full_format_on_a_terminal_concise_elsewhere(tree: Path) -> None:
    screen = _on_a_terminal(tree, "check", "m0.py", "--no-cache").replace("\r\n", "\n")
    assert (
        "m0.py:8:16: GM101 [*] host numpy `np.ones`" in screen
        and " 8 |         mask = ms.Tensor(np.ones((x.shape[0], 4)), ms.float32)\n"
        "   |                ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ GM101\n"
        " 9 |         self.p.set_data(x)\n"
        in screen
    ), screen
    assert "   = safe fix: replace with `ms.ops.ones((x.shape[0], 4), ms.float32)`\n" in screen
    piped = gm("check", "m0.py", cwd=tree).stdout
    assert piped.count("\n") == 2 and " | " not in piped  # one line a finding, as before
    for name in ("concise", "text"):
        assert gm("check", "m0.py", "--output-format", name, cwd=tree).stdout == piped
    framed = gm("check", "n.py", "--output-format", "full", cwd=tree).stdout
    assert "   |         ^^^^^^^^^^ GM202\n" in framed and "fix" not in framed.split("GM202\n")[1].split("\n\n")[0]


def test_summary_counts_files_with_findings_and_announces_hidden_unsafe_fixes(tree: Path) -> None:
    (tree / "unsafe.py").write_text(HOSTILE.replace("self.p.set_data(x)", "other.set_data(x)"))
    done = gm("check", ".", cwd=tree)
    assert [line for line in done.stderr.splitlines() if line.startswith("Found ")][-1] == (
        "Found 10 findings in 5 files (of 5 checked); 8 fixable with `graphmend fix` "
        "(1 more fix with `--unsafe-fixes`)."
    )
    fixed = gm("fix", ".", cwd=tree)
    assert [line for line in fixed.stderr.splitlines() if line.startswith("Fixed ")] == [
        "Fixed 8 finding(s) in 5 file(s); 2 remaining (1 more fix with `--unsafe-fixes`)."
    ]
    (tree / "clean.py").write_text("x = 1\n")
    assert gm("check", "clean.py", cwd=tree).stderr == "No findings in 1 file.\n"


# -- item 9: ruff's selection, documentation links ---------------------------------------------------


def test_a_prefix_selects_default_on_rules_only_a_full_code_the_others(tree: Path) -> None:
    (tree / "view.py").write_text(HOSTILE.replace("return x * mask", "return x.view(x.shape[0], -1)"))
    for prefix in ("GM", "GM3", "GM30"):
        assert "GM302" not in gm("check", "view.py", "--select", prefix, cwd=tree).stdout, prefix
    assert "GM302" in gm("check", "view.py", "--select", "GM302", cwd=tree).stdout
    assert "GM302" in gm("check", "view.py", "--select", "ALL", cwd=tree).stdout
    (tree / "pyproject.toml").write_text('[tool.graphmend]\nselect = ["GM"]\n')
    out = gm("check", "view.py", cwd=tree).stdout
    assert "GM302" not in out and "GM101" in out
    assert "GM101" not in gm("check", "view.py", "--ignore", "GM", "--select", "ALL", cwd=tree).stdout


def test_rule_links_point_at_the_readme_section_that_documents_the_rules(tree: Path) -> None:
    import json
    import re

    from graphmend.output.formats import RULES_ANCHOR, rule_url

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    headings = [re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in
                re.findall(r"^#+ (.+)$", readme, re.M)]  # fmt: skip
    assert RULES_ANCHOR in headings  # GitHub's anchor for that heading
    finding = json.loads(gm("check", "m0.py", "--output-format", "json", cwd=tree).stdout)[0]
    assert finding["url"] == rule_url("GM101") and finding["url"].endswith("/README.md#" + RULES_ANCHOR)
    sarif = json.loads(gm("check", "m0.py", "--output-format", "sarif", cwd=tree).stdout)
    assert {r["helpUri"] for r in sarif["runs"][0]["tool"]["driver"]["rules"]} == {rule_url("GM101")}
    assert json.loads(gm("rules", "GM101", "--output-format", "json", cwd=tree).stdout)["url"] == rule_url("GM101")


# -- item 10: single-key review ------------------------------------------------------------------------


def _review_on_a_terminal(project: Path, keys: list[str]) -> str:
    """`graphmend fix --interactive` on a pseudo-terminal, pressing one key (no Enter) at each prompt."""
    return _interactive(project, keys, target="m0.py", enter=False)


def test_interactive_takes_one_key_asks_again_and_counts_rejections(tree: Path) -> None:
    screen = _review_on_a_terminal(tree, ["x", "n", "y"])
    assert "unknown answer 'x': press y, n, a or q" in screen
    assert screen.count("Apply this safe fix?") == 3  # asked again after the unknown key
    text = (tree / "m0.py").read_text()
    assert "ms.Tensor(np.ones((x.shape[0], 4)), ms.float32)" in text and "ms.ops.assign(self.p, x)" in text
    assert "Fixed 1 finding(s) in 1 file(s); 1 remaining (1 rejected)." in screen


def test_interactive_answers_piped_in_still_take_a_line(tree: Path) -> None:
    done = gm("fix", "--interactive", "--jobs", "1", "m0.py", cwd=tree, stdin="maybe\nn\ny\n")
    assert "unknown answer 'm'" in done.stdout and done.stdout.count("Apply this safe fix?") == 3
    assert "ms.ops.assign(self.p, x)" in (tree / "m0.py").read_text()
    assert "1 remaining (1 rejected)" in done.stderr
    quit_at_end = gm("fix", "--interactive", "--jobs", "1", "m1.py", cwd=tree, stdin="")
    assert "Apply this safe fix?" in quit_at_end.stdout and (tree / "m1.py").read_text() == HOSTILE  # end: quit


def test_a_fix_spells_a_dtype_the_way_the_file_imports_dtypes(tmp_path: Path) -> None:
    """mindcv's xcit.py imports `mindspore` and `dtype as mstype`: the added dtype is `mstype.bool_`."""
    source = (
        "import mindspore\n"
        "import numpy as np\n"
        "from mindspore import Tensor, nn, ops\n"
        "from mindspore import dtype as mstype\n"
        "\n\n"
        "class Fourier(nn.Cell):\n"
        "    def construct(self, B, H, W):\n"
        "        mask = Tensor(np.zeros((B, H, W)).astype(bool))\n"
        "        return mask\n"
    )
    (tmp_path / "xcit.py").write_text(source)
    done = subprocess.run([GRAPHMEND, "fix", "--no-cache", "xcit.py"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    fixed = (tmp_path / "xcit.py").read_text()
    assert "        mask = ops.zeros((B, H, W), mstype.bool_)\n" in fixed
    assert fixed.count("import") == source.count("import")  # nothing added: every name was there


def test_a_line_the_fix_makes_longer_than_the_formatter_allows_is_named(tmp_path: Path) -> None:
    """graphmend keeps the layout around an edit; when the new line is over ruff's line-length, fix says so."""
    (tmp_path / "net.py").write_text(HOSTILE)
    (tmp_path / "pyproject.toml").write_text("[tool.ruff]\nline-length = 50\n")
    done = subprocess.run([GRAPHMEND, "fix", "--diff", "--no-cache", "net.py"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)  # fmt: skip
    assert done.returncode == 1, done.stderr
    fixed_line = next(n for n, text in enumerate(FIXED.splitlines(), 1) if "ms.ops.ones" in text)
    assert f"1 line(s) the fix wrote are longer than 50 (ruff line-length in {tmp_path / 'pyproject.toml'})" in (
        " ".join(done.stderr.split())
    )
    assert f"net.py:{fixed_line} (" in done.stderr
    (tmp_path / "pyproject.toml").write_text("[tool.ruff]\nline-length = 120\n")
    done = subprocess.run([GRAPHMEND, "fix", "--no-cache", "net.py"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120)  # fmt: skip
    assert "longer than" not in done.stderr and (tmp_path / "net.py").read_text() == FIXED
