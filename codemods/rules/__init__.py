"""The rule registry: every module in this package defines one `Rule` subclass with a stable code."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import textwrap
from collections.abc import Iterable

from graphmend.rule import Rule
from graphmend.targets import Breaks, spelled


def _discover() -> dict[str, type[Rule]]:
    rules: dict[str, type[Rule]] = {}
    for info in pkgutil.iter_modules(__path__):
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


RULES: dict[str, type[Rule]] = _discover()


class UnknownRule(ValueError):
    pass


def select_rules(select: Iterable[str] | None = None, ignore: Iterable[str] = ()) -> list[type[Rule]]:
    """Rules by code or code prefix, like ruff: `GM1` selects the default-on rules GM101…GM199; a rule that
    is off by default runs only when its full code (or `ALL`) is selected. Default: the default-on rules.
    `ignore` takes codes and prefixes, and a prefix ignores every rule under it. An empty selection selects
    nothing (a run whose rules are all ignored hands its workers no codes: they must not run the defaults)."""
    if select is not None:
        chosen = [rule for rule in RULES.values() if any(_selects(rule, s) for s in select)]
    else:
        chosen = [rule for rule in RULES.values() if rule.DEFAULT]
    return [rule for rule in chosen if not any(_matches(rule, i) for i in ignore)]


def _matches(rule: type[Rule], selector: str) -> bool:
    selector = selector.strip().upper()
    if selector == "ALL":
        return True
    if not selector.startswith("GM") or not any(code.startswith(selector) for code in RULES):
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


def _selects(rule: type[Rule], selector: str) -> bool:
    if not _matches(rule, selector):
        return False
    return rule.DEFAULT or selector.strip().upper() in ("ALL", rule.CODE)
