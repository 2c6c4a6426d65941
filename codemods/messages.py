"""The MindSpore messages a rule explains: what MindSpore 2.10 printed when the rule's hostile Cell was
compiled in a configuration that breaks it (docs/evidence.md, "Failures", as `make evidence` measured).

A rule declares them next to its docs:

    EXPLAINS = (
        explains(r"Failed to compile in GRAPH_MODE because the 'Parameter' object's method 'set_data'", GRAPH, DYNAMIC),
        explains(r"In JIT strict mode, cannot get attributes set_data", STRICT, EXPORT),
    )

The pattern is a regular expression searched in the error's text with its whitespace collapsed; the
targets are the configurations it was measured in (messages differ between GRAPH, STRICT, dynamic and
export); a `(?P<name>…)` group names what the message is about, and of several findings near the error
the one whose message mentions `` `name` `` explains it. tests/test_explain.py checks each pattern
against its rule's rows of docs/evidence.md, so a MindSpore upgrade that changes a message fails a test
after `make evidence`. `graphmend explain` uses them to tell which finding explains an error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from graphmend.targets import Target


@dataclass(frozen=True)
class Message:
    """One MindSpore message a rule explains, and where it was measured."""

    pattern: str
    targets: frozenset[Target]

    def matches(self, text: str) -> bool:
        return re.search(self.pattern, collapse(text)) is not None

    def subject(self, text: str) -> str | None:
        """The name the message is about, where its pattern has a `(?P<name>…)` group (GM612's "The local
        variable 'y' is not defined …"): of several findings near the line, the one about `y` explains it."""
        found = re.search(self.pattern, collapse(text))
        return found.groupdict().get("name") if found else None


def explains(pattern: str, *targets: Target) -> Message:
    re.compile(pattern)  # a bad pattern fails when the rule is imported, not when a log is read
    if not targets:
        raise ValueError(f"explains({pattern!r}): name the configurations the message was measured in")
    return Message(pattern, frozenset(targets))


def collapse(text: str) -> str:
    """Whitespace runs as one space: MindSpore wraps and indents its messages differently by context."""
    return " ".join(text.split())
