"""What a Cell's source says before anything runs: the parameters of `construct` and `__init__`, and
whether the Cell reads `self.training`.

Read with CPython's `ast` from the module file; nothing is imported or run. The class and the bases it
names that the same file defines are read (a base imported from elsewhere is not): where a method
comes from such a base, or the class is not defined in the file at all, nothing is known, and the
callers check nothing rather than guess.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Signature:
    """A method's parameters after `self`, as a caller passes them."""

    text: str  # `construct(self, x, mask=None)`
    positional: tuple[str, ...]  # in order
    required: int  # how many of `positional` have no default
    star: bool  # *args: any number more
    keywords: frozenset[str]  # every name a keyword may give (positional ones, keyword-only)
    required_keywords: frozenset[str]  # keyword-only without a default
    double_star: bool  # **kwargs: any keyword
    static: bool = False  # a @staticmethod: no `self` before the inputs

    def takes(self, count: int) -> bool:
        return self.required <= count and (self.star or count <= len(self.positional))

    def missing(self, given: set[str]) -> list[str]:
        """The parameters a call with keywords `given` leaves without a value."""
        needed = [*self.positional[: self.required], *sorted(self.required_keywords)]
        return [name for name in needed if name not in given]

    def unknown(self, given: set[str]) -> list[str]:
        """The keywords of `given` no parameter takes."""
        return [] if self.double_star else sorted(given - self.keywords)

    def expects(self) -> str:
        """`1 input`, `1 to 2 inputs`, `at least 1 input`."""
        low, high = self.required, len(self.positional)
        if self.star:
            return f"at least {_inputs(low)}"
        return _inputs(low) if low == high else f"{low} to {_inputs(high)}"


@dataclass(frozen=True)
class CellSource:
    construct: Signature | None  # None: not defined in this file (inherited from elsewhere)
    init: Signature | None
    reads_training: bool  # `self.training` in a method of the class or of a base in the file


def read(path: Path, cell: str, text: str | None = None) -> CellSource | None:
    """The Cell's source facts (from `text` when given, else the file), or None when the source does not
    define the class (or does not parse)."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8") if text is None else text, str(path))
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
        return None
    classes = {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}
    if cell not in classes:
        return None
    chain = _chain(classes[cell], classes)
    return CellSource(
        construct=_signature(chain, "construct"),
        init=_signature(chain, "__init__"),
        reads_training=any(_reads_training(node) for node in chain),
    )


def modes(train: bool | None, sources: list[CellSource | None]) -> list[bool]:
    """The training flags to verify: the one asked for; both when the Cell reads `self.training` (a
    branch eval mode never takes could hide the failure); else eval mode."""
    if train is not None:
        return [train]
    return [False, True] if any(s is not None and s.reads_training for s in sources) else [False]


def _chain(cls: ast.ClassDef, classes: dict[str, ast.ClassDef]) -> list[ast.ClassDef]:
    """The class, then the bases of it the file defines, depth first (Python's order for single bases)."""
    chain, todo, seen = [], [cls], set()
    while todo:
        node = todo.pop(0)
        if node.name in seen:
            continue
        seen.add(node.name)
        chain.append(node)
        todo[:0] = [classes[b.id] for b in node.bases if isinstance(b, ast.Name) and b.id in classes]
    return chain


def _signature(chain: list[ast.ClassDef], name: str) -> Signature | None:
    for cls in chain:
        for node in cls.body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == name:
                return _of(node)
    return None


def _of(function: ast.FunctionDef | ast.AsyncFunctionDef) -> Signature:
    args = function.args
    bound = 0 if _static(function) else 1  # a method's `self`; a @staticmethod construct has none
    positional = [a.arg for a in (*args.posonlyargs, *args.args)][bound:]
    required = len(positional) - len(args.defaults)
    keyword_only = [a.arg for a in args.kwonlyargs]
    required_keywords = [a.arg for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is None]
    return Signature(
        text=f"{function.name}({ast.unparse(args)})",
        positional=tuple(positional),
        required=max(required, 0),
        star=args.vararg is not None,
        keywords=frozenset([a.arg for a in args.args][0 if args.posonlyargs else bound :] + keyword_only),
        required_keywords=frozenset(required_keywords),
        double_star=args.kwarg is not None,
        static=not bound,
    )


def _static(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in function.decorator_list)


def _reads_training(cls: ast.ClassDef) -> bool:
    return any(
        isinstance(node, ast.Attribute)
        and node.attr == "training"
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
        for node in ast.walk(cls)
    )


def _inputs(count: int) -> str:
    return f"{count} input" + ("" if count == 1 else "s")
