"""What a run reports, as plain data: findings and their edits. No libcst here: a run whose every file
comes from the cache reads, prints and counts these without importing the analysis (issue 18)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, NamedTuple

Applicability = Literal["safe", "unsafe"]
Import = tuple[str, str | None]  # ("mindspore", "ops") → from mindspore import ops; ("mindspore", None) → import


class Edit(NamedTuple):
    """One text edit of a fix: replace the span (1-based lines and columns, end exclusive) with `content`."""

    line: int
    column: int
    end_line: int
    end_column: int
    content: str


@dataclass(frozen=True, order=True)
class Finding:
    """A finding as users see it: where, which rule, what to do, and the fix if there is one."""

    path: str
    line: int
    column: int  # 1-based, like ruff and compilers
    code: str
    name: str
    end_line: int
    end_column: int
    message: str
    fix: Applicability | None = None
    original: str = ""  # the source text the fix replaces
    replacement: str | None = None  # the text it puts there
    # every edit the fix makes, in source order: the replacement and the imports it adds (ruff's `fix.edits`)
    edits: tuple[Edit, ...] = ()

    def location(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"
