"""`graphmend record`: run the user's command with the recording hook, and read what it recorded.

The command runs as the user typed it, with its own interpreter, output and exit code; the hook
(record_site/sitecustomize.py) is loaded by every Python process it starts, because its directory comes
first on PYTHONPATH. This process imports neither MindSpore nor the user's code: it starts the command,
then reads the index files the hook wrote.

A recording folder holds `recording.json` (the command, the tree, the bounds), `cells-PID.json` (one per
Python process that imported MindSpore) and `arrays/*.npy`. `Recording.load` merges the processes;
`Recording.requests` turns what was recorded of one Cell class into verify Requests: one per sample, built
with the recorded constructor arguments, Parameters, training flag and inputs, plus the dynamic check when
the same construction was called with inputs of other sizes.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .api import Request, UsageError
from .report import CHECKS

SITE = Path(__file__).parent / "record_site"
MARKER = "recording.json"
LIMITS = {"max_samples": 3, "max_array_mb": 4.0, "max_cell_mb": 64.0, "max_total_mb": 1024.0}
BY_HAND = "describe it in a [[tool.graphmend.verify]] entry (`graphmend verify FILE:Cell --template`)"
UNREACHED_HINT = f"run a script that calls it under `graphmend record`, or {BY_HAND}"


class NotReached(str):
    """Why a Cell the fix touches was not verified from the recording: it never called the Cell, or what
    it recorded cannot be rebuilt (a config object passed to the constructor). Its file is written (nothing
    was proven wrong); the Cell is listed with the reason."""


# -- recording -----------------------------------------------------------------------------------


def record(command: Sequence[str], output: Path, tree: Sequence[Path], limits: dict) -> tuple[int, float]:
    """Run `command` with the hook; its exit code and the seconds it ran. The folder is made anew."""
    if not command:
        raise UsageError("nothing to run: graphmend record [OPTIONS] -- COMMAND [ARGS]...")
    roots = [str(Path(t).resolve()) for t in tree]
    for root in roots:
        if not Path(root).is_dir():
            raise UsageError(f"--tree {root}: no such directory")
    _fresh(output)  # after every check: a bad --tree leaves an earlier recording where it was
    config = {"output": str(output.resolve()), "tree": roots, "command": list(command),
              "cwd": os.getcwd(), "started": time.time()} | limits  # fmt: skip
    (output / MARKER).write_text(json.dumps(config, indent=1), encoding="utf-8")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(SITE), *filter(None, [env.get("PYTHONPATH")])])
    env["GRAPHMEND_RECORD"] = str((output / MARKER).resolve())
    started = time.perf_counter()
    try:
        code = subprocess.call(list(command), env=env)
    except FileNotFoundError:
        raise UsageError(f"{command[0]}: command not found") from None
    except KeyboardInterrupt:
        code = 130
    return code, time.perf_counter() - started


def _fresh(output: Path) -> None:
    """An empty folder at `output`: an earlier recording there is replaced, anything else refused."""
    if output.exists() and not output.is_dir():
        raise UsageError(f"--output {output}: is a file, not a folder")
    if output.is_dir() and any(output.iterdir()):
        if not (output / MARKER).is_file():
            raise UsageError(f"--output {output}: the folder holds files and no recording; give an empty or new one")
        for entry in output.iterdir():
            if entry.name == "arrays" and entry.is_dir():
                shutil.rmtree(entry)
            elif entry.name == MARKER or re.fullmatch(r"cells-\d+\.json(\.tmp)?", entry.name):
                entry.unlink()
    output.mkdir(parents=True, exist_ok=True)


# -- reading -------------------------------------------------------------------------------------


@dataclass
class Recording:
    folder: Path
    config: dict
    cells: dict[str, dict]  # "module:Class" (or "path:Class" for a script's own) -> merged entry
    processes: int

    @classmethod
    def load(cls, folder: Path) -> Recording:
        folder = Path(folder)
        if not (folder / MARKER).is_file():
            make = f"graphmend record -o {folder} -- COMMAND"
            raise UsageError(f"--recorded {folder}: no recording there (make one with `{make}`)")
        config = json.loads((folder / MARKER).read_text(encoding="utf-8"))
        cells: dict[str, dict] = {}
        indexes = sorted(folder.glob("cells-*.json"))
        for index in indexes:
            try:
                data = json.loads(index.read_text(encoding="utf-8"))
            except (OSError, json.JSONDecodeError) as exc:
                raise UsageError(f"{index}: unreadable recording index ({exc})") from None
            for entry in data["cells"].values():
                name = _key(entry)
                if name in cells:
                    _merge(cells[name], entry, config.get("max_samples", LIMITS["max_samples"]))
                else:
                    cells[name] = entry
        return cls(folder, config, cells, len(indexes))

    def entry(self, module: str, path: Path, cell: str) -> dict | None:
        """What was recorded of class `cell` of `module` (a copy of the recorded tree matches by module name;
        a script's own classes, recorded as `__main__`, by file)."""
        found = self.cells.get(f"{module}:{cell}")
        if found is None:
            found = self.cells.get(f"{Path(path).resolve()}:{cell}")
        return found

    def requests(self, module: str, path: Path, source: str, cell: str, *, checks=None, also=()):
        """(label, Request) for each recorded sample of the Cell; or, as a NotReached, why there is none.
        `also`: other rewritten files (path, source) staged beside it (Request.also)."""
        entry = self.entry(module, path, cell)
        if entry is None:
            return NotReached(f"not reached by the recording: {UNREACHED_HINT}")
        made, problems = [], []
        samples = entry["samples"]
        partners = _partners(samples)
        used = set(partners.values())
        for i, sample in enumerate(samples):
            if i in used:
                continue
            if problem := sample.get("init_problem") or sample.get("inputs_problem"):
                problems.append(problem)
                continue
            partner = samples[partners[i]] if i in partners else None
            recorded = {"dir": str(self.folder.resolve()), "sample": sample, "partner": partner}
            wanted = [c for c in (checks or CHECKS) if c != "dynamic" or partner is not None]
            if not wanted:
                problems.append("the dynamic check needs two recorded calls of other sizes, and it has one")
                continue
            made.append((cell, Request(path, source, cell, checks=wanted, train=sample["training"], module=module,
                                       recorded=recorded, also=tuple(also))))  # fmt: skip
        if len(made) > 1:
            made = [(f"{cell} [recorded {i}]", request) for i, (_, request) in enumerate(made, 1)]
        if made:
            return made
        return NotReached("recorded, but " + "; ".join(dict.fromkeys(problems)) + f": {BY_HAND}")

    def summary(self) -> list[str]:
        """What a person reads after `graphmend record`."""
        samples = sum(len(e["samples"]) for e in self.cells.values())
        stored = sum(e.get("stored_bytes", 0) for e in self.cells.values())
        lines = [f"recorded {len(self.cells)} Cell class(es), {samples} sample(s), "
                 f"{stored / 1e6:.1f} MB of arrays, from {self.processes} process(es) into {self.folder}"]  # fmt: skip
        for key, entry in sorted(self.cells.items()):
            problems = {s.get("init_problem") or s.get("inputs_problem") for s in entry["samples"]} - {None}
            notes = [*problems, *entry.get("notes", ())]
            calls = f"{entry['calls']} call(s), {len(entry['samples'])} sample(s)"
            lines.append(f"  {key}: {calls}" + "".join(f"\n      {n}" for n in notes))
        if not self.cells:
            lines.append("  no Cell of the tree was called: is --tree where the Cells are defined, and does the "
                         "command build and call them?")  # fmt: skip
        return lines


def _key(entry: dict) -> str:
    if entry["module"] == "__main__":
        return f"{entry['file']}:{entry['class']}"
    return f"{entry['module']}:{entry['class']}"


def _merge(into: dict, entry: dict, most: int) -> None:
    into["calls"] += entry["calls"]
    for signature, count in entry["signatures"].items():
        into["signatures"][signature] = into["signatures"].get(signature, 0) + count
    for sample in entry["samples"]:
        if len(into["samples"]) < most and all(_identity(sample) != _identity(s) for s in into["samples"]):
            into["samples"].append(sample)
    into["notes"] = list(dict.fromkeys([*into.get("notes", ()), *entry.get("notes", ())]))
    into["stored_bytes"] = into.get("stored_bytes", 0) + entry.get("stored_bytes", 0)


def _identity(sample: dict) -> str:
    return json.dumps([sample["signature"], sample["init"]], sort_keys=True)


def _construction(sample: dict) -> str:
    return json.dumps(sample["init"], sort_keys=True)


_SIZES = re.compile(r"\[[\d,]*\]")


def _partners(samples: list[dict]) -> dict[int, int]:
    """Sample index -> a later sample of the same construction and mode whose inputs differ only in sizes:
    the pair runs the dynamic check (compiled once with those dimensions free, called with both)."""
    pairs: dict[int, int] = {}
    for i, a in enumerate(samples):
        if i in pairs.values() or a.get("args") is None:
            continue
        for j in range(i + 1, len(samples)):
            b = samples[j]
            if j in pairs.values() or j in pairs or b.get("args") is None or b["training"] != a["training"]:
                continue
            if _construction(a) != _construction(b):
                continue
            if a["signature"] != b["signature"] and _rank_only(a["signature"]) == _rank_only(b["signature"]):
                pairs[i] = j
                break
    return pairs


def _rank_only(signature: str) -> str:
    return _SIZES.sub(lambda m: f"[{m.group(0).count(',') + 1 if m.group(0) != '[]' else 0}d]", signature)


def describe(recorded: dict) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The report's input lines and notes for a recorded request."""
    sample, partner = recorded["sample"], recorded.get("partner")
    inputs = [f"recorded call: {_signature_text(sample)}"]
    if partner:
        inputs.append(f"dynamic check also calls with {_signature_text(partner)}")
    notes = []
    sampled = _sampled(sample) + (_sampled(partner) if partner else [])
    if sampled:
        notes.append(f"inputs drawn from their recorded statistics: {'; '.join(dict.fromkeys(sampled))}")
    notes.append(sample.get("params_note") or "Parameters: the recorded values")
    return tuple(inputs), tuple(notes)


def _signature_text(sample: dict) -> str:
    return sample["signature"].split(" ", 1)[1]


def _sampled(sample: dict) -> list[str]:
    found = []

    def walk(value) -> None:
        if isinstance(value, dict):
            if "sampled" in value:
                found.append(f"{value['dtype']}[{','.join(map(str, value['shape']))}] ({value['sampled']})")
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk([sample.get("args"), sample.get("kwargs")])
    return found
