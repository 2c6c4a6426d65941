"""`graphmend run -- COMMAND ...`: run the user's command, explain the graph-mode error it dies of, and
with `fix` apply the fix and run it again, until it gets through, nothing explains the error, or N rounds.

The command is the user's own (their environment, their working directory): this is where user code runs,
by design, as in `verify`. graphmend itself only reads what the command printed and the user's files;
it edits only files under `root`. `graph`/`strict` make a PyNative script compile in GRAPH_MODE (STRICT
syntax) without editing it: a `sitecustomize` on a temporary PYTHONPATH sets the context as soon as the
command imports mindspore, and keeps it when the script sets a mode of its own.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from graphmend import explain as explaining
from graphmend import session as sessions
from graphmend.files import FileResult

# the start-up hook: waits for `import mindspore`, then sets GRAPH_MODE (and STRICT) and holds them
HOOK = '''\
"""graphmend run's start-up hook (a temporary sitecustomize): GRAPH_MODE for a script written for PyNative."""
import importlib.abc
import importlib.util
import os
import sys

_STRICT = os.environ.get("GRAPHMEND_RUN_SYNTAX") == "STRICT"


def _hold(ms):
    def pinned(original):
        def set_context(*args, **kwargs):
            if "mode" in kwargs:
                kwargs["mode"] = ms.GRAPH_MODE
            if _STRICT:
                kwargs["jit_syntax_level"] = ms.STRICT
            return original(*args, **kwargs)
        return set_context
    original = ms.set_context
    ms.set_context = pinned(original)
    if getattr(ms, "context", None) is not None and getattr(ms.context, "set_context", None) is original:
        ms.context.set_context = ms.set_context
    original(mode=ms.GRAPH_MODE, **({"jit_syntax_level": ms.STRICT} if _STRICT else {}))


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name != "mindspore":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None:
            return spec
        exec_module = spec.loader.exec_module

        def run(module):
            exec_module(module)
            _hold(module)

        spec.loader.exec_module = run
        return spec


sys.meta_path.insert(0, _Finder())
'''


@dataclass
class Round:
    number: int
    exit_code: int
    explanations: list[explaining.Explanation] = field(default_factory=list)
    fixed: list[str] = field(default_factory=list)  # files written this round
    note: str = ""  # why the loop stopped here, when it did


@dataclass
class Outcome:
    rounds: list[Round]
    diff: str  # every edit of the run, file by file
    passed: bool  # the last run of the command exited 0


def run(
    command: Sequence[str],
    options: sessions.Options,
    fix: bool = False,
    syntax: str | None = None,  # None: as the script says; "LAX" / "STRICT": GRAPH_MODE with that syntax
    max_rounds: int = 10,
    root: Path | None = None,
    unsafe: bool = False,
    echo: Callable[[str], None] = lambda text: None,
) -> Outcome:
    root = (root or Path.cwd()).resolve()
    originals: dict[str, bytes] = {}
    rounds: list[Round] = []
    with tempfile.TemporaryDirectory(prefix="graphmend-run-") as hook_dir:
        env = _environment(hook_dir, syntax)
        for number in range(1, max_rounds + 1):
            done = subprocess.run(list(command), cwd=Path.cwd(), env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, check=False)  # fmt: skip
            output = done.stdout.decode("utf-8", errors="replace")
            echo(output)
            this = Round(number, done.returncode)
            rounds.append(this)
            if done.returncode == 0:
                this.note = f"run {number}: the command exited 0"
                break
            errors = explaining.parse_log(output)
            if not errors:
                this.note = f"the command exited {done.returncode} without an error graphmend can read"
                break
            this.explanations = explaining.explain(errors[-1:], options, root)  # the error it died of
            item = this.explanations[0]
            if not item.explained:
                this.note = f"not explained: {item.why_not}"
                break
            if not fix:
                this.note = "explained (run with --fix to apply the fix and run again)"
                break
            for finding in item.findings:
                path = root / finding.path
                if finding.path not in originals and path.is_file():
                    originals[finding.path] = path.read_bytes()
            applied = explaining.apply_fixes(this.explanations, unsafe, root)
            this.fixed = applied.written
            if not applied.written:
                this.note = "; ".join(applied.failed) or "the finding has no fix graphmend may apply (--unsafe-fixes?)"
                break
        else:
            rounds[-1].note = rounds[-1].note or f"stopped after {max_rounds} round(s) (--max-rounds)"
    return Outcome(rounds, _diff(root, originals), rounds[-1].exit_code == 0)


def _environment(hook_dir: str, syntax: str | None) -> dict[str, str]:
    env = dict(os.environ)
    if syntax is None:
        return env
    Path(hook_dir, "sitecustomize.py").write_text(HOOK, encoding="utf-8")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (hook_dir, env.get("PYTHONPATH", "")) if p)
    env["GRAPHMEND_RUN_SYNTAX"] = syntax
    return env


def _diff(root: Path, originals: dict[str, bytes]) -> str:
    out = []
    for path, before in sorted(originals.items()):
        out.append(FileResult(path, original=before, output=(root / path).read_bytes()).diff())
    return "".join(out)


def table(outcome: Outcome) -> list[tuple[str, str, str, str, str]]:
    """One row a round that died of an error: round, error, rule, file:line, fixed? (A last run that exits
    0 has no row: the note under the table says so.)"""
    rows = []
    for r in outcome.rounds:
        item = r.explanations[0] if r.explanations else None
        if item is None:
            if r.exit_code:
                rows.append((str(r.number), f"exit {r.exit_code}", "—", "", "no"))
            continue
        error = explaining._short(f"{item.error.kind}: {item.error.headline}", 56)
        rule = item.finding.code if item.finding else "—"
        where = f"{item.finding.path}:{item.finding.line}" if item.finding else (
            f"{item.frame.path}:{item.frame.line}" if item.frame else "")  # fmt: skip
        rows.append((str(r.number), error, rule, where, "yes" if r.fixed else "no"))
    return rows
