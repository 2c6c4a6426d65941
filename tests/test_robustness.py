"""Never lose a line: bad input gets a clear message with its path and the run goes on; writes are
atomic and careful; check and fix never run the code they read."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import libcst as cst
import pytest

from graphmend.files import FileResult, WriteError, process_source, write_atomic
from graphmend.rule import Rule
from graphmend.rules import select_rules
from graphmend.targets import breaks

GRAPHMEND = str(Path(sys.executable).parent / "graphmend")

HOSTILE = textwrap.dedent(
    """\
    import mindspore as ms
    import numpy as np
    from mindspore import nn


    class Head(nn.Cell):
        def construct(self, x):
            \"\"\"中文注释: 掩码\"\"\"
            return x * ms.Tensor(np.ones((x.shape[0], 4)), ms.float32)
    """
)
OLD = "ms.Tensor(np.ones((x.shape[0], 4)), ms.float32)"
NEW = "ms.ops.ones((x.shape[0], 4), ms.float32)"


def gm(*args: str, cwd: Path, **kwargs) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "300"}
    return subprocess.run([GRAPHMEND, *args, "--no-cache"], cwd=cwd, capture_output=True, text=True, env=env,
                          timeout=900, **kwargs)  # fmt: skip


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "good.py").write_text(HOSTILE)
    return tmp_path


def _errors(done: subprocess.CompletedProcess) -> dict[str, str]:
    lines = [line for line in done.stderr.splitlines() if ": error: " in line]
    return {line.split(":", 1)[0]: line for line in lines}


def test_every_kind_of_bad_input_is_reported_and_every_other_file_processed(tree: Path) -> None:
    (tree / "syntax.py").write_text("class Broken(:\n    pass\n")
    (tree / "py2.py").write_text('print "hello"\n')
    (tree / "invalid.py").write_bytes(HOSTILE.encode() + b"# \xff\xfe\n")
    (tree / "unknown_cookie.py").write_bytes(b"# -*- coding: klingon -*-\nx = 1\n")
    deep = "+".join(["x"] * 20000)
    (tree / "deep.py").write_text(f"class A:\n    def construct(self, x):\n        return {deep}\n")
    (tree / "parens.py").write_text("x = " + "(" * 300 + "1" + ")" * 300 + "\n")
    (tree / "nul.py").write_bytes(b"x = 1\x00\n")
    (tree / "empty.py").write_text("")
    (tree / "dir.py").mkdir()
    (tree / "dir.py" / "inner.py").write_text(HOSTILE)
    (tree / "loop_a.py").symlink_to("loop_b.py")
    (tree / "loop_b.py").symlink_to("loop_a.py")
    (tree / "sub").mkdir()
    (tree / "sub" / "up").symlink_to("..")  # a directory loop: never entered
    (tree / "deleted.py").symlink_to("gone.py")  # listed, then gone when read
    done = gm("check", ".", cwd=tree)
    assert done.returncode == 2
    errors = _errors(done)
    assert set(errors) == {"syntax.py", "py2.py", "invalid.py", "unknown_cookie.py", "deep.py", "parens.py",
                           "nul.py", "loop_a.py", "loop_b.py", "deleted.py"}  # fmt: skip
    assert errors["syntax.py"].startswith("syntax.py:1:14: error: cannot parse: invalid syntax")
    assert "Missing parentheses in call to 'print'" in errors["py2.py"]
    assert errors["invalid.py"].startswith("invalid.py:10: error: cannot decode: byte b'\\xff' is not utf-8")
    assert "coding cookie" in errors["invalid.py"]
    assert "unknown encoding" in errors["unknown_cookie.py"]
    assert "nested too deeply" in errors["deep.py"]
    assert "too many nested parentheses" in errors["parens.py"]
    assert "Too many levels of symbolic links" in errors["loop_a.py"]
    assert "No such file or directory" in errors["deleted.py"]
    # and the good files were all checked
    assert "good.py:9:20: GM101" in done.stdout and "dir.py/inner.py:9:20: GM101" in done.stdout
    assert "Traceback" not in done.stderr


def test_gbk_with_a_coding_cookie_is_fixed_and_written_back_in_gbk(tree: Path) -> None:
    path = tree / "gbk.py"
    path.write_bytes(("# -*- coding: gbk -*-\n" + HOSTILE).encode("gbk"))
    assert gm("fix", "gbk.py", cwd=tree).returncode == 0
    assert path.read_bytes() == ("# -*- coding: gbk -*-\n" + HOSTILE.replace(OLD, NEW)).encode("gbk")


def test_bom_crlf_and_tabs_survive_a_fix(tree: Path) -> None:
    bom = tree / "bom.py"
    bom.write_bytes(b"\xef\xbb\xbf" + HOSTILE.replace("\n", "\r\n").encode())
    tabs = tree / "tabs.py"
    tabs.write_text(HOSTILE.replace("    ", "\t"))
    assert gm("fix", "bom.py", "tabs.py", cwd=tree).returncode == 0
    assert bom.read_bytes() == b"\xef\xbb\xbf" + HOSTILE.replace(OLD, NEW).replace("\n", "\r\n").encode()
    assert tabs.read_text() == HOSTILE.replace("    ", "\t").replace(OLD, NEW)


def test_20_mb_generated_files_are_handled(tree: Path) -> None:
    rows = "".join(f"TABLE_{i} = [{i}, {i + 1}, 'value-{i}']\n" for i in range(650_000))
    (tree / "tables.py").write_text(rows)  # data only: no graph code, but the limit bounds every file's cost
    (tree / "tables_with_a_cell.py").write_text(HOSTILE + rows)
    assert (tree / "tables.py").stat().st_size > 20_000_000
    done = gm("check", ".", cwd=tree)
    assert done.returncode == 2
    limit = "4 MB limit (--max-file-size raises it; generated files are better excluded)"
    assert _errors(done) == {
        "tables.py": f"tables.py: error: not checked: 30.8 MB is over the {limit}",
        "tables_with_a_cell.py": f"tables_with_a_cell.py: error: not checked: 30.8 MB is over the {limit}",
    }
    assert "good.py:9:20: GM101" in done.stdout


def test_a_file_that_cannot_be_read_is_reported(tree: Path) -> None:
    secret = tree / "secret.py"
    if os.geteuid() == 0:
        # root reads any file whatever its mode: use one whose read fails in the kernel instead
        secret.symlink_to("/proc/self/mem")
        expected = "secret.py: error: cannot read: Input/output error"
    else:
        secret.write_text(HOSTILE)
        secret.chmod(0o000)
        expected = "secret.py: error: cannot read: Permission denied"
    done = gm("check", ".", cwd=tree)
    assert done.returncode == 2
    assert _errors(done)["secret.py"] == expected
    assert "good.py:9:20: GM101" in done.stdout


# -- writes ---------------------------------------------------------------------------------------


def test_a_file_changed_on_disk_since_it_was_read_is_not_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "model.py"
    path.write_text(HOSTILE)
    result = process_source(str(path), path.read_bytes(), select_rules(), fix=True)
    path.write_text(HOSTILE + "# edited meanwhile\n")
    with pytest.raises(WriteError, match="changed on disk since graphmend read it"):
        write_atomic(path, result.output, result.original)
    assert path.read_text() == HOSTILE + "# edited meanwhile\n"


class _Vandal(Rule):
    """What it does: / Why it breaks graph mode: / Example: / Fix safety: (a broken rule, for this test)."""

    CODE, NAME, BREAKS = "GM999", "vandal", breaks(hygiene=True, note="a broken rule, for this test")

    def visit_Return(self, node: cst.Return) -> None:
        # `1 = x`: libcst prints it, CPython refuses it
        self.report(node, "vandalism", cst.Assign([cst.AssignTarget(cst.Integer("1"))], cst.Name("x")))


def test_a_result_that_does_not_parse_is_never_written(tmp_path: Path) -> None:
    result = process_source("model.py", HOSTILE.encode(), [_Vandal], fix=True)
    assert isinstance(result, FileResult) and result.error is not None
    assert "does not parse" in result.error.message and not result.changed


def test_fix_does_not_write_through_a_symlink_pointing_outside(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    target = outside / "model.py"
    target.write_text(HOSTILE)
    project = tmp_path / "project"
    project.mkdir()
    (project / "link.py").symlink_to(target)
    (project / "own.py").write_text(HOSTILE)
    done = gm("fix", ".", cwd=project)
    assert done.returncode == 2
    assert "link.py: is a symlink; not written" in done.stderr
    assert target.read_text() == HOSTILE  # untouched
    assert (project / "own.py").read_text() == HOSTILE.replace(OLD, NEW)


# -- no execution ---------------------------------------------------------------------------------


def test_check_and_fix_never_import_or_run_user_code(tmp_path: Path) -> None:
    marker = tmp_path / "EXECUTED"
    payload = f"open({str(marker)!r}, 'w').write('ran')\n"
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text(payload)
    (package / "conftest.py").write_text(payload)
    (package / "model.py").write_text(payload + HOSTILE)
    (package / "setup.py").write_text(payload)
    for args in (("check", "pkg"), ("fix", "--diff", "pkg"), ("fix", "pkg"), ("report", "pkg", "-o", "r.html")):
        gm(*args, cwd=tmp_path)
    assert not marker.exists()
    assert NEW in (package / "model.py").read_text()


def test_the_examples_survive_a_round_trip_through_fix(tmp_path: Path) -> None:
    examples = Path(__file__).resolve().parent.parent / "examples"
    shutil.copytree(examples, tmp_path / "examples")
    gm("fix", "examples", cwd=tmp_path)
    for path in (tmp_path / "examples").glob("*.py"):
        compile(path.read_bytes(), str(path), "exec")
    again = gm("fix", "--diff", "examples", cwd=tmp_path)
    assert again.stdout == ""
