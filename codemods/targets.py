"""What a user deploys (a target) and where each rule's pattern breaks (its `BREAKS`), as measured.

A target is one of the four configurations the verifier measures (`graphmend.verify` CHECKS, same names):

    graph    GRAPH_MODE with the default (LAX) syntax, static shapes
    strict   jit_syntax_level=STRICT
    dynamic  a dimension left unknown (set_inputs with None), LAX
    export   a MindIR exported for deployment (ms.export, which compiles under STRICT)

Targets are cumulative where MindSpore 2.10 measured them to be (docs/evidence.md: every pattern that
fails under graph fails under strict and dynamic too; every one that fails under strict fails in the
export; an export is usually made with a dynamic batch): `strict` puts graph in play, `dynamic` graph,
and `export` every configuration, so the default target, `export`, reports every finding.

A rule says where its pattern breaks with `breaks(...)`, read from its row of docs/evidence.md:

    BREAKS = breaks(STRICT, EXPORT, note="numpy on a traced value is rejected by STRICT")

The positional targets are exactly the columns whose *before* is ✗ (tests/test_targets.py compares
them with the table; `python -m graphmend.evidence --check` with a fresh measurement). `together=`
is a case no check runs: the pattern breaks when all those configurations are in play at once (GM104:
a dynamic batch under STRICT). `silent=` (numbers change without an error) and `pynative=` (it fails
without graph mode too, a PyTorch leftover) make a rule reported for every target.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass


class Target(enum.Enum):
    GRAPH = "graph"
    STRICT = "strict"
    DYNAMIC = "dynamic"
    EXPORT = "export"

    def __str__(self) -> str:
        return self.value


GRAPH, STRICT, DYNAMIC, EXPORT = Target.GRAPH, Target.STRICT, Target.DYNAMIC, Target.EXPORT
ALL: frozenset[Target] = frozenset(Target)
DEFAULT: frozenset[Target] = frozenset({EXPORT})

# what choosing a target puts in play (see the module docstring for the measurements behind it)
IMPLIES: dict[Target, frozenset[Target]] = {
    GRAPH: frozenset({GRAPH}),
    STRICT: frozenset({GRAPH, STRICT}),
    DYNAMIC: frozenset({GRAPH, DYNAMIC}),
    EXPORT: ALL,
}


class TargetError(ValueError):
    pass


@dataclass(frozen=True)
class Breaks:
    """Where a rule's pattern breaks (or silently changes numbers), as MindSpore 2.10 measured it."""

    measured: frozenset[Target]  # the checks that fail on the rule's hostile Cell (docs/evidence.md)
    together: frozenset[Target] = frozenset()  # a case no check runs: breaks when all of these are in play
    silent: bool = False  # wrong numbers without an error: reported for every target
    pynative: bool = False  # fails in PyNative too (a PyTorch leftover): reported for every target
    hygiene: bool = False  # not a MindSpore pattern (GM000): reported for every target
    note: str = ""  # the human account, for the rule page

    def applies(self, targets: Iterable[Target]) -> bool:
        """Whether a finding of this rule matters to someone who deploys to `targets`."""
        in_play = expand(targets)
        if self.silent or self.pynative or self.hygiene or self.measured & in_play:
            return True
        return bool(self.together) and self.together <= in_play

    @property
    def targets(self) -> tuple[Target, ...]:
        """The targets this rule is reported for, in the order of Target."""
        return tuple(t for t in Target if self.applies([t]))

    def __str__(self) -> str:
        if self.hygiene:
            return f"nothing: not a MindSpore pattern ({self.note})" if self.note else "nothing"
        parts = [", ".join(t.value for t in Target if t in self.measured)] if self.measured else []
        if self.together:
            parts.append(" + ".join(t.value for t in Target if t in self.together) + " together (no check runs it)")
        parts += ["silently"] if self.silent else []
        parts += ["PyNative too"] if self.pynative else []
        text = "; ".join(parts) or "nothing measured"
        return f"{text} ({self.note})" if self.note else text


def breaks(
    *measured: Target,
    together: Iterable[Target] = (),
    silent: bool = False,
    pynative: bool = False,
    hygiene: bool = False,
    note: str = "",
) -> Breaks:
    """A rule's `BREAKS`: the failing columns of its docs/evidence.md row, then what no check shows."""
    for target in (*measured, *together):
        if not isinstance(target, Target):
            raise TypeError(f"breaks(): {target!r} is not a Target (GRAPH, STRICT, DYNAMIC, EXPORT)")
    return Breaks(frozenset(measured), frozenset(together), silent, pynative, hygiene, note)


def expand(targets: Iterable[Target]) -> frozenset[Target]:
    """The configurations `targets` put in play."""
    return frozenset().union(*(IMPLIES[t] for t in targets))


def parse(values: Iterable[str], where: str = "--target") -> frozenset[Target]:
    """`["graph,strict", "export"]` → the targets; TargetError naming `where` on an unknown one."""
    names = [v.strip().lower() for value in values for v in value.split(",") if v.strip()]
    known = {t.value: t for t in Target}
    unknown = [n for n in names if n not in known]
    if unknown or not names:
        got = ", ".join(repr(n) for n in unknown) if unknown else "nothing"
        raise TargetError(f"{where}: expected one or more of {', '.join(known)}, got {got}")
    return frozenset(known[n] for n in names)


def spelled(targets: Iterable[Target]) -> str:
    """`graph, strict`, in the order of Target."""
    chosen = set(targets)
    return ", ".join(t.value for t in Target if t in chosen)


def checks(targets: Iterable[Target]) -> list[str]:
    """The verifier's checks (graphmend.verify CHECKS) that measure what `targets` put in play."""
    in_play = expand(targets)
    return [t.value for t in Target if t in in_play]
