"""The verifier's parent side without MindSpore: specs, targets, staging and usage errors."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from graphmend.cli import app
from graphmend.verify.process import KEPT, Output
from graphmend.verify.specs import Dim, ScalarSpec, SpecError, TensorSpec, describe, parse_specs, to_json
from graphmend.verify.staging import display_path, locate, original_version, rewritten_version

REPO = Path(__file__).resolve().parents[1]
BARE_PYTHON = str(Path(sys.base_prefix) / "bin" / "python3")  # the venv's base: no MindSpore


def test_tensor_specs_with_fixed_and_named_dimensions():
    image, tokens = parse_specs(["float32[B,3,32,32]", "int32[B, 16]{0,30000}"])
    assert image == TensorSpec("float32", (Dim(2, "B"), Dim(3), Dim(32), Dim(32)))
    assert tokens == TensorSpec("int32", (Dim(2, "B"), Dim(16)), 0, 30000)
    assert describe(tokens) == "int32[B=2,16]{0,30000}"


def test_a_size_given_once_names_the_dimension_everywhere():
    specs = parse_specs(["float32[B,4]", "float32[B=5,4]"])
    assert [d.size for s in specs for d in s.dims] == [5, 4, 5, 4]
    with pytest.raises(SpecError, match="two sizes"):
        parse_specs(["float32[B=4,4]", "float32[B=5,4]"])


def test_integers_default_to_values_below_ten_and_floats_to_the_normal():
    assert parse_specs(["int64[3]"])[0].high == 10
    assert parse_specs(["float16[3]"])[0].low is None
    assert parse_specs(["float32[3]{-1,1}"])[0].low == -1.0


def test_scalar_specs():
    assert parse_specs(["int:4", "float:0.5", "bool:true", "none"]) == (
        ScalarSpec(4),
        ScalarSpec(0.5),
        ScalarSpec(True),
        ScalarSpec(None),
    )
    assert to_json(ScalarSpec(True)) == {"scalar": True}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("float33[2]", "unknown dtype"),
        ("float32(2,3)", "expected DTYPE"),
        ("float32[2,-1]", "neither a size nor a name"),
        ("float32[B=0]", "at least 1"),
        ("int32[2]{5,1}", "LOW < HIGH"),
        ("bool[2]{0,1}", "no value range"),
        ("int:four", "not a int"),
        ("bool:yes", "scalars are"),
    ],
)
def test_bad_specs_say_what_a_good_one_looks_like(text, message):
    with pytest.raises(SpecError, match=message):
        parse_specs([text])


def test_the_rewritten_module_lands_in_a_symlink_mirror_of_its_package(tmp_path):
    user = tmp_path / "user"
    (user / "pkg" / "sub").mkdir(parents=True)
    for name in ("pkg/__init__.py", "pkg/sub/__init__.py", "pkg/helpers.py", "pkg/sub/vocab.txt"):
        (user / name).write_text("")
    (user / "pkg/sub/model.py").write_text("original = True\n")
    module = locate(user / "pkg/sub/model.py")
    assert (module.name, module.root) == ("pkg.sub.model", user)
    mirror = rewritten_version(module, "rewritten = True\n", tmp_path / "mirror")
    copy = tmp_path / "mirror/pkg/sub/model.py"
    assert copy.read_text() == "rewritten = True\n" and not copy.is_symlink()
    assert (tmp_path / "mirror/pkg/helpers.py").resolve() == user / "pkg/helpers.py"
    assert (tmp_path / "mirror/pkg/sub/vocab.txt").is_symlink()
    assert mirror.sys_path == (str(tmp_path / "mirror"), str(user))
    assert (user / "pkg/sub/model.py").read_text() == "original = True\n"
    assert original_version(module).sys_path == (str(user),)
    assert display_path(str(copy), mirror, module, "fixed.py") == "fixed.py"
    shown = display_path(str(tmp_path / "mirror/pkg/helpers.py"), mirror, module, "fixed.py")
    assert os.path.abspath(shown) == str(user / "pkg/helpers.py")


def test_a_dotted_name_sets_the_import_root_of_a_namespace_package(tmp_path):
    (tmp_path / "ns" / "models").mkdir(parents=True)
    (tmp_path / "ns/models/net.py").write_text("")
    module = locate(tmp_path / "ns/models/net.py", "ns.models.net")
    assert module.root == tmp_path and module.top == tmp_path / "ns"


# a spec GrowingClip's signatures take: the errors below come after that check
FITS = ["--init", '{"num_features": 3}', "--input", "float32[2,3,4,4]"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["examples/batch_renorm.py"], "bad TARGET"),
        (["examples/missing.py:Net"], "is not a file"),
        (["examples/batch_renorm.py:Missing"], "defines no Missing"),
        (["no_such_package.model:Net"], "module no_such_package.model is not in the current directory"),
        (["examples/batch_renorm.py:GrowingClip", "--input", "float32[2,3"], "bad input spec"),
        (["examples/batch_renorm.py:GrowingClip", "--init", "{dim: 3}"], "--init is not valid JSON"),
        (["examples/batch_renorm.py:GrowingClip", "--init", "[3]"], "must be a JSON object"),
        (["examples/batch_renorm.py:GrowingClip", "--checks", "graph,fast"], "unknown check fast"),
        (
            ["examples/batch_renorm.py:GrowingClip", "--input", "float32[2,3,4,4]", "--checks", "dynamic"],
            "named",
        ),
        (["examples/batch_renorm.py:GrowingClip", "--against", "nowhere.py"], "--against nowhere.py"),
        (["examples/batch_renorm.py:GrowingClip", "--format", "xml"], "use table or json"),
        (
            ["examples/batch_renorm.py:GrowingClip", "--python", "/no/python", *FITS],
            "cannot start a worker with /no/python",
        ),
        (["no_such_package.model:Net", "--python", "/no/python"], "--python /no/python: cannot run it"),
        (["examples/batch_renorm.py:GrowingClip", "--python", BARE_PYTHON, *FITS], "No module named 'mindspore'"),
        (["examples/batch_renorm.py:GrowingClip", "--memory-limit", "-1", *FITS], "memory limit must be a number"),
        (
            ["examples/batch_renorm.py:GrowingClip", "--memory-limit", "0.05", *FITS],
            "before MindSpore was ready, over the limit of 0.05 GB: raise --memory-limit",
        ),
    ],
)
def test_usage_errors_exit_2_with_a_clear_message(args, message, monkeypatch):
    monkeypatch.chdir(REPO)
    result = CliRunner().invoke(app, ["verify", *args])
    assert result.exit_code == 2, result.output
    assert message in " ".join(result.output.split())  # the console wraps long messages
    assert "mindspore" not in sys.modules


def test_a_jobs_output_is_counted_and_only_its_two_ends_are_kept():
    output = Output()
    output.add(b"first line\n" + b"x" * (3 * KEPT))
    output.add(b"\n[WARNING] ME: noise\nlast line\n")
    assert output.size == 11 + 3 * KEPT + 31
    assert (len(output.head), len(output.tail)) == (KEPT, KEPT)
    assert output.head.startswith(b"first line\nxxx") and output.tail.endswith(b"noise\nlast line\n")
    assert output.last_line() == "last line"
    assert Output().last_line() == "no output"
