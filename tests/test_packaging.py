"""graphmend installs one import package, `graphmend` (issue 16, item 8): no top-level `cli` or
`codemods` in site-packages to clash with a user's own modules, in the venv `make test` installed and in a
wheel built from this checkout."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _python(code: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True)


def test_the_installed_venv_has_graphmend_and_no_cli_or_codemods(tmp_path: Path) -> None:
    # a folder of the user's, outside the checkout: only what is installed can be imported
    for name in ("cli", "codemods"):
        run = _python(f"import {name}", tmp_path)
        assert run.returncode == 1 and f"No module named '{name}'" in run.stderr, run.stderr
    run = _python("import graphmend, graphmend.cli; from graphmend import check_source; print(graphmend.__name__)",
                  tmp_path)  # fmt: skip
    assert run.returncode == 0 and run.stdout == "graphmend\n", run.stderr
    version = subprocess.run([sys.executable, "-m", "graphmend", "--version"], cwd=tmp_path,
                             capture_output=True, text=True)  # fmt: skip
    assert version.returncode == 0 and version.stdout.startswith("graphmend "), version.stderr


def test_a_user_module_named_cli_is_not_shadowed(tmp_path: Path) -> None:
    (tmp_path / "cli.py").write_text("WHO = 'the user'\n", encoding="utf-8")
    run = _python("import cli, graphmend.cli; print(cli.WHO)", tmp_path)
    assert run.returncode == 0 and run.stdout == "the user\n", run.stderr


def test_the_wheel_holds_one_package(tmp_path: Path) -> None:
    source = tmp_path / "src"  # a copy: building writes build/ and egg-info next to the sources
    shutil.copytree(REPO / "codemods", source / "codemods", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md", "cli.py"):
        shutil.copy(REPO / name, source / name)
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(tmp_path), "."],
        cwd=source, capture_output=True, text=True,
    )  # fmt: skip
    assert build.returncode == 0, build.stderr
    (wheel,) = tmp_path.glob("graphmend-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert {name.split("/")[0] for name in names} == {"graphmend", "graphmend-0.1.0.dist-info"}
    assert {"graphmend/cli.py", "graphmend/__main__.py", "graphmend/documented_limits.json",
            "graphmend/verify/worker.py", "graphmend/verify/record_site/sitecustomize.py"} <= set(names)  # fmt: skip
    entry_points = zipfile.ZipFile(wheel).read("graphmend-0.1.0.dist-info/entry_points.txt").decode()
    assert "graphmend = graphmend.cli:main" in entry_points
