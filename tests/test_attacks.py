"""Attacks on `check`/`fix`/`report`, each reproduced on real files and real processes: nothing in the
checked tree runs, nothing is lost, nothing planted in the tree is trusted, nothing is left behind.

No result here depends on timing: where a process must be observed or must end, the test waits for the
fact (a file written, a process gone) with a generous bound that only a real failure reaches.
"""

from __future__ import annotations

import base64
import json
import os
import secrets
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_robustness import HOSTILE, NEW, OLD, _errors
from test_verify import processes_with

from graphmend.files import FileResult, WriteError, process_source, read_source, write_atomic
from graphmend.rules import select_rules
from graphmend.runner import Cache, Task

GRAPHMEND = str(Path(sys.executable).parent / "graphmend")
LIMIT = 4_000_000


def gm(*args: str, cwd: Path, env: dict | None = None, timeout: float = 900) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "300", **(env or {})}
    return subprocess.run([GRAPHMEND, *args], cwd=cwd, capture_output=True, text=True, env=env, timeout=timeout)


def cells(root: Path, count: int) -> list[Path]:
    paths = []
    for i in range(count):
        path = root / f"model_{i}.py"
        path.write_text(HOSTILE)
        paths.append(path)
    return paths


# -- 1. nothing in the checked tree runs -------------------------------------------------------------


def test_modules_named_like_standard_ones_in_the_tree_never_run(tmp_path: Path) -> None:
    # the pool's helper processes and workers import these three first; one tree holds them all, and each
    # would leave its own marker
    markers = {module: tmp_path / f"EXECUTED-{module}" for module in ("multiprocessing", "ast", "tokenize")}
    for module, marker in markers.items():
        (tmp_path / f"{module}.py").write_text(f"open({str(marker)!r}, 'a').write('ran\\n')\n")
    models = cells(tmp_path, 4)
    for args in (("check", "."), ("fix", "--diff", "."), ("report", ".", "-o", "r.html"), ("fix", "."),
                 ("check", "--add-ignore", ".")):  # fmt: skip
        if args[0] == "check" and args[1] == "--add-ignore":
            models[3].write_text(HOSTILE)
        done = gm(*args, "-j", "2", "--no-cache", cwd=tmp_path)
        assert "Traceback" not in done.stderr, (args, done.stderr)
        assert done.returncode in (0, 1), (args, done.stderr)
        if args == ("fix", "."):
            assert models[3].read_text() == HOSTILE.replace(OLD, NEW)
    assert "# graphmend: ignore[GM101]" in models[3].read_text()
    assert [module for module, marker in markers.items() if marker.exists()] == []


# -- 2. the cache is not trusted -------------------------------------------------------------------------


@pytest.fixture
def user_cache(tmp_path: Path) -> dict:
    return {"XDG_CACHE_HOME": str(tmp_path / "user-cache")}


def _planted(tree: Path, task: Task, entry: object) -> None:
    """Write `entry` where the cache looks for `task`: the key is public (content, graphmend's code)."""
    key = Cache(tree / ".graphmend_cache", key=b"x" * 64).key(task)
    path = tree / ".graphmend_cache" / key[:2] / f"{key}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(entry))


def _task(path: Path, fix: bool) -> Task:
    codes = tuple(rule.CODE for rule in select_rules())
    return Task(str(path.name), path.read_bytes(), codes, fix, False, LIMIT)


def _legacy_entry(output: str) -> dict:
    """Round 1's entry format held the fixed output itself: here injected code, nothing, or not Python."""
    return {"findings": [], "applied": [], "output": base64.b64encode(output.encode()).decode(), "encoding": "utf-8"}


def test_a_planted_cache_entry_never_decides_what_fix_writes(tmp_path: Path, user_cache: dict) -> None:
    model = tmp_path / "model.py"
    model.write_text(HOSTILE)
    injected = "import os; os.system('echo pwned')\n"
    cache = tmp_path / ".graphmend_cache"
    forged = Cache(cache, key=b"attacker" * 8)  # signed with a key the attacker made up: "nothing to fix"
    for output in (injected, "", "def (:\n", None):
        model.write_text(HOSTILE)
        if output is None:
            forged.put(_task(model, fix=True), FileResult("model.py", original=model.read_bytes()))
        else:
            _planted(tmp_path, _task(model, fix=True), _legacy_entry(output))
        done = gm("fix", "model.py", cwd=tmp_path, env=user_cache)
        assert done.returncode == 0, done.stderr
        assert model.read_text() == HOSTILE.replace(OLD, NEW)
    model.write_text(HOSTILE)
    # the same forged "no findings" entry cannot hide findings from check either
    forged.put(_task(model, fix=False), FileResult("model.py", original=model.read_bytes()))
    assert "GM101" in gm("check", "model.py", cwd=tmp_path, env=user_cache).stdout


def test_the_cache_key_lives_outside_the_tree_and_bad_signed_entries_are_ignored(
    tmp_path: Path, user_cache: dict
) -> None:
    model = tmp_path / "model.py"
    model.write_text(HOSTILE)
    cold = gm("check", "model.py", cwd=tmp_path, env=user_cache)
    key_file = Path(user_cache["XDG_CACHE_HOME"]) / "graphmend" / "key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert not list((tmp_path / ".graphmend_cache").rglob("key*"))  # nothing in the tree can sign an entry
    (entry,) = (tmp_path / ".graphmend_cache").rglob("*.json")
    assert "payload" in json.loads(entry.read_text())
    # correctly signed but corrupt: an unknown rule code, an unknown encoding, a wrong field
    cache = Cache(tmp_path / ".graphmend_cache", key=key_file.read_text().strip().encode())
    task = _task(model, fix=False)
    good = json.loads(json.loads(entry.read_text())["payload"])
    for bad in ({**good, "encoding": "klingon"}, {**good, "findings": [{**good["findings"][0], "code": "GM999"}]},
                {**good, "findings": [{"nonsense": 1}]}, {"findings": "GM101"}):  # fmt: skip
        payload = json.dumps(bad)
        entry.write_text(json.dumps({"payload": payload, "mac": cache._mac(cache.key(task), payload)}))
        done = gm("check", "model.py", cwd=tmp_path, env=user_cache)
        assert (done.returncode, done.stdout) == (1, cold.stdout), done.stderr
        assert "Traceback" not in done.stderr


def test_fix_never_caches_an_output_and_a_fixed_file_is_fixed_again(tmp_path: Path, user_cache: dict) -> None:
    model = tmp_path / "model.py"
    model.write_text(HOSTILE)
    assert gm("fix", "--diff", "model.py", cwd=tmp_path, env=user_cache).returncode == 1
    assert list((tmp_path / ".graphmend_cache").rglob("*.json")) == []  # a result with a fix is not stored
    assert gm("fix", "model.py", cwd=tmp_path, env=user_cache).returncode == 0
    assert model.read_text() == HOSTILE.replace(OLD, NEW)
    # the clean result is cached, and a warm run still writes nothing
    gm("fix", "model.py", cwd=tmp_path, env=user_cache)
    assert len(list((tmp_path / ".graphmend_cache").rglob("*.json"))) == 1
    assert gm("fix", "model.py", cwd=tmp_path, env=user_cache).returncode == 0
    assert model.read_text() == HOSTILE.replace(OLD, NEW)


# -- 3, 4. only regular files, never more than the limit -------------------------------------------------


def test_devices_fifos_and_endless_files_are_refused_and_the_run_goes_on(tmp_path: Path) -> None:
    cells(tmp_path, 1)
    (tmp_path / "zero.py").symlink_to("/dev/zero")
    (tmp_path / "urandom.py").symlink_to("/dev/urandom")
    (tmp_path / "null.py").symlink_to("/dev/null")
    os.mkfifo(tmp_path / "fifo.py")
    done = gm("check", ".", "--no-cache", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert _errors(done) == {
        "fifo.py": "fifo.py: error: not read: is a FIFO, not a regular file",
        "null.py": "null.py: error: not read: is a character device, not a regular file",
        "urandom.py": "urandom.py: error: not read: is a character device, not a regular file",
        "zero.py": "zero.py: error: not read: is a character device, not a regular file",
    }
    assert "model_0.py:9:20: GM101" in done.stdout


def test_the_size_limit_bounds_files_without_graph_code_too(tmp_path: Path) -> None:
    big = tmp_path / "data.py"
    big.write_text("x = [" + ",".join(["1"] * 600_000) + "]\n")  # 1.2 MB on one line, no graph word
    assert isinstance(read_source(big, 1_000_000), type(read_source(tmp_path / "missing.py", 1)))
    done = gm("check", "data.py", "--max-file-size", "1", "--no-cache", cwd=tmp_path)
    assert done.returncode == 2
    assert _errors(done)["data.py"].startswith("data.py: error: not checked: 1.2 MB is over the 1 MB limit")
    bad = gm("check", "data.py", "--max-file-size", "nan", cwd=tmp_path)
    assert bad.returncode == 2 and "error: --max-file-size: expected megabytes > 0" in bad.stderr


# -- 5. an edit saved while fix writes is kept ----------------------------------------------------------


def test_an_edit_saved_while_fix_writes_is_never_lost(tmp_path: Path) -> None:
    path = tmp_path / "model.py"
    path.write_text(HOSTILE)
    result = process_source(str(path), path.read_bytes(), select_rules(), fix=True)
    edited = HOSTILE + "# saved by the editor while graphmend wrote\n"

    def save_during_fsync(frame, event, arg) -> None:
        # the user's save lands after graphmend's first check, while its temp file is flushed to disk
        if event == "c_call" and arg is os.fsync:
            sys.setprofile(None)
            path.write_text(edited)

    sys.setprofile(save_during_fsync)
    try:
        with pytest.raises(WriteError, match="changed on disk while graphmend wrote it; not written"):
            write_atomic(path, result.output, result.original)
    finally:
        sys.setprofile(None)
    assert path.read_text() == edited
    assert [p.name for p in tmp_path.iterdir()] == ["model.py"]  # the temp file is gone


# -- 6, 10, 11, 15. owner, hard links, read-only files, long names ------------------------------------


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a file to another user")
def test_fix_as_root_keeps_the_owner_and_group_of_the_file(tmp_path: Path) -> None:
    model = cells(tmp_path, 1)[0]
    os.chown(model, 4321, 8765)
    model.chmod(0o640)
    assert gm("fix", model.name, "--no-cache", cwd=tmp_path).returncode == 0
    info = model.stat()
    assert (info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)) == (4321, 8765, 0o640)
    assert model.read_text() == HOSTILE.replace(OLD, NEW)


def test_a_hard_link_is_split_with_a_warning(tmp_path: Path) -> None:
    model = cells(tmp_path, 1)[0]
    other = tmp_path / "elsewhere.txt"
    os.link(model, other)
    done = gm("fix", model.name, "--no-cache", cwd=tmp_path)
    assert done.returncode == 0
    assert f"warning: {model.name}: had 1 other hard link(s); they keep the old content" in done.stderr
    assert model.read_text() == HOSTILE.replace(OLD, NEW) and other.read_text() == HOSTILE


def test_a_read_only_file_is_not_rewritten(tmp_path: Path) -> None:
    frozen, writable = cells(tmp_path, 2)
    frozen.chmod(0o444)
    done = gm("fix", ".", "--no-cache", cwd=tmp_path)
    assert done.returncode == 2
    message = f"error: {frozen.name}: is read-only (mode 0444); not written (chmod u+w to let graphmend fix it)"
    assert message in done.stderr.splitlines()
    assert frozen.read_text() == HOSTILE and writable.read_text() == HOSTILE.replace(OLD, NEW)


def test_a_file_name_at_the_file_system_limit_is_fixed(tmp_path: Path) -> None:
    name = "m" * 252 + ".py"  # 255 bytes: the temp name must be shortened, not the file's
    (tmp_path / name).write_text(HOSTILE)
    done = gm("fix", name, "--no-cache", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / name).read_text() == HOSTILE.replace(OLD, NEW)
    assert [p.name for p in tmp_path.iterdir()] == [name]


# -- 12. temp files of a killed run are cleaned up -------------------------------------------------------


def test_temp_files_left_by_a_killed_fix_are_removed_by_the_next_one(tmp_path: Path) -> None:
    model = cells(tmp_path, 1)[0]
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()  # its pid is free: a temp file carrying it was left by a process that is gone
    stale = tmp_path / f".{model.name}.{dead.pid}.abcd1234.graphmend"
    stale.write_text(HOSTILE[:40])  # half a file, as a SIGKILL mid-write leaves it
    live = tmp_path / f".{model.name}.{os.getpid()}.efgh5678.graphmend"  # this process is alive: not stale
    live.write_text("being written")
    assert gm("fix", ".", "--no-cache", cwd=tmp_path).returncode == 0
    assert not stale.exists() and live.exists()
    assert model.read_text() == HOSTILE.replace(OLD, NEW)


# -- 13. bytes libcst cannot print back ------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [HOSTILE.replace("\n", "\r"), HOSTILE.replace("\n\n\nclass", "\n\x0cclass")],
    ids=["cr-only-line-endings", "form-feed-before-a-statement"],
)
def test_a_file_libcst_does_not_round_trip_is_refused_not_damaged(tmp_path: Path, text: str) -> None:
    model = tmp_path / "model.py"
    model.write_bytes(text.encode())
    done = gm("fix", "model.py", "--no-cache", cwd=tmp_path)
    assert done.returncode == 2
    assert _errors(done)["model.py"].startswith("model.py: error: not fixed: libcst does not reproduce this file")
    assert model.read_bytes() == text.encode()


# -- 9. the pool dies with the CLI -----------------------------------------------------------------------


@pytest.mark.parametrize("settled", [False, True], ids=["starting", "settled"])
def test_sigkill_of_the_cli_takes_its_pool_with_it(tmp_path: Path, settled: bool) -> None:
    """Killed while the pool starts, or once its workers run (where multiprocessing's forkserver and the
    workers used to keep each other alive forever: every worker held the forkserver's "alive" pipe)."""
    for i in range(400):  # far more work than the test waits for
        (tmp_path / f"m{i}.py").write_text(HOSTILE * 20)
    token = f"graphmend-kill-{os.getpid()}-{secrets.token_hex(8)}"  # no other run's token starts with it
    env = {**os.environ, "GRAPHMEND_TEST_TOKEN": token}
    cli = subprocess.Popen([GRAPHMEND, "check", "--no-cache", "-j", "2", "."], cwd=tmp_path, env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        _until(lambda: len(processes_with(token)) >= 4, "the CLI, its forkserver and two workers to start")
        if settled:  # both workers up and working (the state either way must end the same)
            _until(lambda: len(processes_with(token)) >= 5, "the CLI, its helpers and both workers")
            time.sleep(1.0)
    finally:
        cli.send_signal(signal.SIGKILL)
        cli.wait()
    assert cli.returncode == -signal.SIGKILL
    _until(lambda: processes_with(token) == [], "every pool process to end with the CLI")


def _until(condition, what: str, bound: float = 120.0) -> None:
    """Wait for a fact; the bound is only reached when the fact never comes (round 1's pool idled minutes)."""
    end = time.monotonic() + bound
    while not condition():
        if time.monotonic() > end:
            pytest.fail(f"waited {bound:g} s for {what}")
        time.sleep(0.1)


# -- 16. nothing checked is not a pass --------------------------------------------------------------------


def test_excluding_everything_is_an_error_not_a_green_run(tmp_path: Path) -> None:
    cells(tmp_path, 2)
    (tmp_path / "pyproject.toml").write_text('[tool.graphmend]\nexclude = ["*"]\n')
    done = gm("check", "model_0.py", cwd=tmp_path)
    assert done.returncode == 2
    assert "error: nothing to check: all 1 Python file(s) under the given paths are excluded" in done.stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    done = gm("check", "empty", cwd=tmp_path)
    assert (done.returncode, done.stderr.strip()) == (2, "error: nothing to check: no Python file under the "
                                                          "given paths")  # fmt: skip
