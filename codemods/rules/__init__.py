"""The rule registry: every module in this package defines one `Rule` subclass with a stable code.

`INDEX` (from `index.json`, written by `make rule-index`) holds what choosing rules and printing
findings need: code, name, default, fix kind, where the pattern breaks. `RULES` maps a code to its class
and imports a rule's module (and with it libcst) only when the class is asked for: a run whose every
file comes from the cache selects its rules and prints their findings without loading any (issue 18).
tests/test_rule_index.py checks the index against the classes.
"""

from __future__ import annotations

import importlib
import inspect
import json
import pkgutil
import textwrap
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from graphmend.targets import Breaks, Target, spelled

if TYPE_CHECKING:
    from graphmend.rule import Rule


@dataclass(frozen=True)
class RuleInfo:
    """A rule's facts that need no analysis: what `INDEX` holds for each code."""

    CODE: str
    NAME: str
    DEFAULT: bool
    FIX: str
    BREAKS: Breaks
    module: str  # under graphmend.rules
    summary: str  # the docstring's first line


def _info(entry: dict) -> RuleInfo:
    b = entry["breaks"]
    breaks = Breaks(frozenset(Target(t) for t in b["measured"]), frozenset(Target(t) for t in b["together"]),
                    b["silent"], b["pynative"], b["hygiene"], b["note"])  # fmt: skip
    return RuleInfo(entry["code"], entry["name"], entry["default"], entry["fix"], breaks, entry["module"],
                    entry["summary"])  # fmt: skip


INDEX_FILE = Path(__file__).with_name("index.json")


def _load_index() -> dict[str, RuleInfo]:
    try:
        entries = json.loads(INDEX_FILE.read_text(encoding="utf-8"))
    except FileNotFoundError:  # a checkout whose index was never written: learn it from the classes
        entries = index_entries(_discover().values())
    return {entry["code"]: _info(entry) for entry in entries}


def _discover() -> dict[str, type[Rule]]:
    """Every rule class, by importing every module of the package (what the index is written from)."""
    from graphmend.rule import Rule

    rules: dict[str, type[Rule]] = {}
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_"):  # shared tables (_torch_table), not rules
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        for value in vars(module).values():
            is_rule = isinstance(value, type) and issubclass(value, Rule) and value is not Rule
            if is_rule and value.__module__ == module.__name__:
                if value.CODE in rules:
                    raise RuntimeError(f"rule code {value.CODE} is defined twice")
                found = getattr(value, "BREAKS", None)
                if not isinstance(found, Breaks):
                    raise RuntimeError(f"{module.__name__}: {value.CODE}.BREAKS must be `breaks(...)` from "
                                       f"graphmend.targets, not {found!r} (README: Adding a rule)")  # fmt: skip
                rules[value.CODE] = value
    return dict(sorted(rules.items()))


def index_entries(rules: Iterable[type[Rule]]) -> list[dict]:
    """What `index.json` holds for these rule classes."""
    entries = []
    for rule in rules:
        b = rule.BREAKS
        doc = inspect.getdoc(rule) or ""
        entries.append({
            "code": rule.CODE, "name": rule.NAME, "default": rule.DEFAULT, "fix": rule.FIX,
            "breaks": {"measured": sorted(t.value for t in b.measured), "together": sorted(t.value for t in b.together),
                       "silent": b.silent, "pynative": b.pynative, "hygiene": b.hygiene, "note": b.note},
            "module": rule.__module__.rpartition(".")[2], "summary": doc.splitlines()[0] if doc else "",
        })  # fmt: skip
    return entries


def index_text() -> str:
    """What `index.json` holds, from the classes."""
    return json.dumps(index_entries(_discover().values()), indent=1, ensure_ascii=False) + "\n"


def write_index() -> None:
    """`make rule-index`: write `index.json` after adding or changing a rule."""
    INDEX_FILE.write_text(index_text(), encoding="utf-8")


INDEX: dict[str, RuleInfo] = _load_index()


class _Rules(Mapping[str, "type[Rule]"]):
    """Code → rule class, each module imported on first use (`INDEX` answers without importing)."""

    def __init__(self) -> None:
        self._loaded: dict[str, type[Rule]] = {}

    def __getitem__(self, code: str) -> type[Rule]:
        rule = self._loaded.get(code)
        if rule is None:
            info = INDEX[code]  # KeyError for an unknown code, as a dict would
            module = importlib.import_module(f"{__name__}.{info.module}")
            rule = next(v for v in vars(module).values() if getattr(v, "CODE", None) == code and isinstance(v, type))
            self._loaded[code] = rule
        return rule

    def __iter__(self) -> Iterator[str]:
        return iter(INDEX)

    def __len__(self) -> int:
        return len(INDEX)

    def __contains__(self, code: object) -> bool:
        return code in INDEX


RULES: Mapping[str, type[Rule]] = _Rules()


def modules() -> list[str]:
    """Every rule module's full name (a worker pool's forkserver imports them once for all its workers)."""
    return [f"{__name__}.{info.module}" for info in INDEX.values()]


class UnknownRule(ValueError):
    pass


def select_rules(select: Iterable[str] | None = None, ignore: Iterable[str] = ()) -> list[type[Rule]]:
    """The classes of `select_codes(select, ignore)` (importing their modules)."""
    return [RULES[code] for code in select_codes(select, ignore)]


def select_codes(select: Iterable[str] | None = None, ignore: Iterable[str] = ()) -> list[str]:
    """Rules by code or code prefix, like ruff: `GM1` selects the default-on rules GM101…GM199; a rule that
    is off by default runs only when its full code (or `ALL`) is selected. Default: the default-on rules.
    `ignore` takes codes and prefixes, and a prefix ignores every rule under it. An empty selection selects
    nothing (a run whose rules are all ignored hands its workers no codes: they must not run the defaults)."""
    if select is not None:
        select = list(select)
        chosen = [rule for rule in INDEX.values() if any(_selects(rule, s) for s in select)]
    else:
        chosen = [rule for rule in INDEX.values() if rule.DEFAULT]
    ignore = list(ignore)
    return [rule.CODE for rule in chosen if not any(_matches(rule, i) for i in ignore)]


def _matches(rule: RuleInfo | type[Rule], selector: str) -> bool:
    selector = selector.strip().upper()
    if selector == "ALL":
        return True
    if not selector.startswith("GM") or not any(code.startswith(selector) for code in INDEX):
        raise UnknownRule(f"unknown rule selector {selector!r}; `graphmend rules` lists the codes")
    return rule.CODE.startswith(selector)


def rule_page(rule: type[Rule]) -> str:
    """A rule's documentation, as `graphmend rules CODE` prints it (the server's hover shows it too)."""
    header = f"{rule.CODE} {rule.NAME} ({'on' if rule.DEFAULT else 'off'} by default)"
    return f"{header}\n\n{inspect.getdoc(rule)}\n\n{breaks_lines(rule)}\nFix: {rule.FIX}"


def breaks_lines(rule: type[Rule]) -> str:
    """`Breaks: strict, export (...)` and `Targets: strict, export` (where it is reported), for rule pages."""
    return f"Breaks: {rule.BREAKS}\nReported for targets: {spelled(rule.BREAKS.targets)}"


def doc_sections(text: str) -> list[tuple[str | None, str]]:
    """A docstring's `Heading:` lines (unindented) and the indented body under each."""
    sections: list[tuple[str | None, list[str]]] = [(None, [])]
    for line in text.splitlines():
        if line and not line[0].isspace() and line.endswith(":"):
            sections.append((line[:-1], []))
        else:
            sections[-1][1].append(line)
    return [(h, textwrap.dedent("\n".join(body)).strip("\n")) for h, body in sections if h or "".join(body).strip()]


def _selects(rule: RuleInfo, selector: str) -> bool:
    if not _matches(rule, selector):
        return False
    return rule.DEFAULT or selector.strip().upper() in ("ALL", rule.CODE)
