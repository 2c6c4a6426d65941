"""What the checked code itself says it deploys to: the default target when neither `--target` nor the config sets one.

    strict   `set_context(jit_syntax_level=STRICT)` (or `0`, `"STRICT"`), `JitConfig(jit_syntax_level="STRICT")`,
             `jit(fullgraph=True)`, `MS_DEV_JIT_SYNTAX_LEVEL` set to `0`/`STRICT`
    dynamic  `Tensor(shape=[None, ...])` (the placeholder of `set_inputs` and of a dynamic export),
             `jit(dynamic=1)`
    export   a call of `mindspore.export` (any import spelling)

Names are resolved through each file's imports, scope by scope (`from mindspore import export as save`
is found; a method of your own called `export`, or a function `export` defined in the file, is not);
nothing is imported and no user code runs. Only files that contain one of the words are parsed, by
CPython's own parser (`ast`): this runs on every `check`, cached or not, so it must cost next to nothing.
Nothing found: the default, `export` (every finding).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from graphmend.targets import DEFAULT, DYNAMIC, EXPORT, STRICT, Target, spelled
from graphmend.vocabulary import canonical

if TYPE_CHECKING:
    from graphmend.runner import Cache

# a file without one of these cannot hold a sign, and is not parsed (most files of a tree); each pattern
# starts with a word, which `re` looks for first (one pattern of alternatives takes four times as long)
_WORDS = tuple(
    re.compile(pattern)
    for pattern in (rb"jit_syntax_level", rb"MS_DEV_JIT_SYNTAX_LEVEL", rb"fullgraph\s*=", rb"dynamic\s*=\s*[1-9T]",
                    rb"export\s*\(", rb"import[^\n]*\bexport\b", rb"shape\s*=\s*[\[(][^\])]*None")
)  # fmt: skip
_ENV = "MS_DEV_JIT_SYNTAX_LEVEL"
EXPORTS = {"mindspore.export", "mindspore.train.export", "mindspore.train.serialization.export"}
_JIT = {"mindspore.jit", "mindspore.JitConfig", "mindspore.common.jit_config.JitConfig"}
_TENSOR = "mindspore.Tensor"


@dataclass(frozen=True)
class Sign:
    """One place in the code that asks for a target."""

    target: Target
    path: str
    line: int
    what: str  # `jit_syntax_level`, `Tensor(shape=[None, ...])`, `ms.export`

    def __str__(self) -> str:
        return f"{self.what} in {self.path}:{self.line}"


@dataclass(frozen=True)
class Choice:
    """The targets in effect and why: `target: strict (jit_syntax_level in train.py:12)`."""

    targets: frozenset[Target]
    why: str

    def __str__(self) -> str:
        return f"target: {spelled(self.targets)} ({self.why})"


def default(files: Iterable[tuple[str, bytes]], cache: Cache | None = None) -> Choice:
    """The targets the code asks for (the first sign of each), or `export` when it asks for none.

    Every run reads them, cached or not: `cache` keeps each file's signs by its content."""
    first: dict[Target, Sign] = {}
    for path, data in files:
        if len(first) < 3 and may_have_signs(data):
            for sign in _cached_signs(data, path, cache):
                first.setdefault(sign.target, sign)
    if not first:
        return Choice(DEFAULT, "the default: no STRICT syntax level, dynamic shape or export in the checked code")
    chosen = [first[t] for t in Target if t in first]
    return Choice(frozenset(first), "; ".join(str(s) for s in chosen))


def may_have_signs(data: bytes) -> bool:
    return any(pattern.search(data) for pattern in _WORDS)


def _cached_signs(data: bytes, path: str, cache: Cache | None) -> list[Sign]:
    stored = cache.get_signs(data) if cache else None
    if stored is not None:
        try:
            return [Sign(Target(target), path, line, what) for target, line, what in stored]
        except (TypeError, ValueError):
            pass  # not what put_signs wrote: found again
    found = signs(data, path)
    if cache:
        cache.put_signs(data, [[s.target.value, s.line, s.what] for s in found])
    return found


def signs(data: bytes, path: str) -> list[Sign]:
    """Every sign of a target in one file, in source order (none if it does not parse)."""
    try:
        tree = ast.parse(data)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    found = []
    for node, scopes in _walk(tree, [_Scope(_bindings(tree))]):
        for target, what in _classify(node, scopes):
            found.append(Sign(target, path, node.lineno, what))
    return sorted(found, key=lambda s: s.line)


Bindings = dict[str, list[str | None]]  # name → what each binding of it in one scope imports (None: not an import)


@dataclass(frozen=True)
class _Scope:
    bindings: Bindings
    is_class: bool = False


def _walk(node: ast.AST, scopes: list[_Scope]) -> Iterator[tuple[ast.AST, list[_Scope]]]:
    """The calls, assignments and dicts under `node` in source order, each with the scopes its names are
    read from, innermost first, as Python resolves them: a function's own bindings, then the functions
    around it, then the module; a class body sees its own names, the functions in it do not."""
    if isinstance(node, ast.Call | ast.Assign | ast.Dict):
        yield node, scopes
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
        outer = [*getattr(node, "decorator_list", ()), *getattr(node, "bases", ()), *getattr(node, "keywords", ())]
        if not isinstance(node, ast.ClassDef):
            outer += [*node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)]
        for part in outer:
            yield from _walk(part, scopes)
        if isinstance(node, ast.ClassDef):
            inner = [_Scope(_bindings(node), is_class=True), *scopes]
        else:
            inner = [_Scope(_bindings(node)), *(s for s in scopes if not s.is_class)]
        for part in node.body if isinstance(node.body, list) else [node.body]:
            yield from _walk(part, inner)
        return
    for child in ast.iter_child_nodes(node):
        yield from _walk(child, scopes)


def _bindings(scope: ast.AST) -> Bindings:
    """Every name `scope` binds itself (not in the functions or classes inside it), with what it imports."""
    found: Bindings = {}
    if isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
        arguments = scope.args
        for arg in (*arguments.posonlyargs, *arguments.args, arguments.vararg, *arguments.kwonlyargs,
                    arguments.kwarg):  # fmt: skip
            if arg is not None:
                found.setdefault(arg.arg, []).append(None)
    todo = list(scope.body) if isinstance(scope.body, list) else [scope.body]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Import):
            for alias in node.names:
                local = alias.asname or alias.name.split(".")[0]
                found.setdefault(local, []).append(alias.name if alias.asname else local)
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.name != "*":
                    module = None if node.level else node.module
                    found.setdefault(alias.asname or alias.name, []).append(module and f"{module}.{alias.name}")
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found.setdefault(node.name, []).append(None)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            found.setdefault(node.id, []).append(None)
        elif not isinstance(node, ast.Lambda):
            todo.extend(ast.iter_child_nodes(node))
    return found


def _resolve(node: ast.expr, scopes: list[_Scope]) -> set[str]:
    """The canonical imported names of a dotted expression (`ms.train.export` → `mindspore.train.export`)."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return set()
    for scope in scopes:
        if node.id in scope.bindings:
            tail = "".join(f".{p}" for p in reversed(parts))
            return {canonical(imported + tail) for imported in scope.bindings[node.id] if imported}
    return set()


_KEYWORDS = {"jit_syntax_level", "fullgraph", "dynamic"}


def _classify(node: ast.AST, scopes: list[_Scope]) -> list[tuple[Target, str]]:
    if isinstance(node, ast.Assign):
        return [(STRICT, _ENV)] if any(_is_env_key(t) for t in node.targets) and _strict_env(node.value) else []
    if isinstance(node, ast.Dict):
        return [(STRICT, _ENV) for k, v in zip(node.keys, node.values, strict=True)
                if k is not None and _string(k) == _ENV and _strict_env(v)]  # fmt: skip
    assert isinstance(node, ast.Call)
    names = _resolve(node.func, scopes)
    keywords = {k.arg: k.value for k in node.keywords if k.arg is not None}
    found = []
    if names & EXPORTS:
        found.append((EXPORT, f"{ast.unparse(node.func)}(...)"))
    if names & {_TENSOR} and "shape" in keywords and _has_none(keywords["shape"]):
        found.append((DYNAMIC, f"{ast.unparse(node.func)}(shape=[None, ...])"))
    if any(n.startswith("mindspore.") for n in names):
        for keyword in node.keywords:
            if keyword.arg == "jit_syntax_level" and _strict_level(keyword.value, scopes):
                found.append((STRICT, "jit_syntax_level"))
            if names & _JIT and keyword.arg == "fullgraph" and _is_true(keyword.value):
                found.append((STRICT, "jit(fullgraph=True)"))
            if names & _JIT and keyword.arg == "dynamic" and _is_true(keyword.value):
                found.append((DYNAMIC, "jit(dynamic=...)"))
    func = node.func
    if (isinstance(func, ast.Attribute) and func.attr in ("setdefault", "putenv")) or "os.putenv" in names:
        args = node.args
        if len(args) >= 2 and _string(args[0]) == _ENV and _strict_env(args[1]):
            found.append((STRICT, _ENV))
    return found


def _string(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _is_env_key(target: ast.expr) -> bool:
    """`os.environ["MS_DEV_JIT_SYNTAX_LEVEL"]` (or any mapping of environment variables under that key)."""
    return isinstance(target, ast.Subscript) and _string(target.slice) == _ENV


def _strict_env(value: ast.expr) -> bool:
    text = _string(value)
    return text is not None and text.strip().upper() in ("0", "STRICT")


def _strict_level(value: ast.expr, scopes: list[_Scope]) -> bool:
    """`ms.STRICT`, `context.STRICT`, `0`, `"STRICT"`."""
    if isinstance(value, ast.Constant) and type(value.value) is int:
        return value.value == 0
    if _string(value) is not None:
        return _string(value).strip().upper() == "STRICT"  # type: ignore[union-attr]
    return any(n.startswith("mindspore.") and n.endswith(".STRICT") for n in _resolve(value, scopes))


def _is_true(value: ast.expr) -> bool:
    if not isinstance(value, ast.Constant):
        return False
    return value.value is True or (type(value.value) is int and value.value != 0)


def _has_none(value: ast.expr) -> bool:
    elements = value.elts if isinstance(value, ast.List | ast.Tuple) else []
    return any(isinstance(e, ast.Constant) and e.value is None for e in elements)
