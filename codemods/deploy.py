"""What the checked code itself says it deploys to: the default target when neither `--target` nor the config sets one.

    strict   `set_context(jit_syntax_level=STRICT)` (or `0`, `"STRICT"`), `JitConfig(jit_syntax_level="STRICT")`,
             `jit(fullgraph=True)`, `MS_DEV_JIT_SYNTAX_LEVEL` set to `0`/`STRICT`
    dynamic  `Tensor(shape=[None, ...])` (the placeholder of `set_inputs` and of a dynamic export),
             `jit(dynamic=1)`
    export   a call of `mindspore.export` (any import spelling)

Names are resolved through each file's imports (`from mindspore import export as save` is found,
a method of your own called `export` is not); nothing is imported and no user code runs. Only files
that contain one of the words are parsed. Nothing found: the default, `export` (every finding).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from dataclasses import dataclass

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from graphmend.names import QualifiedNames, imported_names, resolve_scopes
from graphmend.targets import DEFAULT, DYNAMIC, EXPORT, STRICT, Target, spelled

# a file without one of these cannot hold a sign, and is not parsed (most files of a tree)
_WORDS = re.compile(
    rb"jit_syntax_level|MS_DEV_JIT_SYNTAX_LEVEL|fullgraph\s*=|dynamic\s*=\s*[1-9T]|\bexport\s*\(|import[^\n]*\bexport\b"
    rb"|shape\s*=\s*[\[(][^\])]*None"
)
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


def default(files: Iterable[tuple[str, bytes]]) -> Choice:
    """The targets the code asks for (the first sign of each), or `export` when it asks for none."""
    first: dict[Target, Sign] = {}
    for path, data in files:
        if len(first) < 3 and _WORDS.search(data):
            for sign in signs(data, path):
                first.setdefault(sign.target, sign)
    if not first:
        return Choice(DEFAULT, "the default: no STRICT syntax level, dynamic shape or export in the checked code")
    chosen = [first[t] for t in Target if t in first]
    return Choice(frozenset(first), "; ".join(str(s) for s in chosen))


def signs(data: bytes, path: str) -> list[Sign]:
    """Every sign of a target in one file, in source order (none if it does not parse)."""
    if not _candidate(data):
        return []
    try:
        module = cst.parse_module(data)
    except (cst.ParserSyntaxError, RecursionError, ValueError):
        return []
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    qualified = QualifiedNames(resolve_scopes(wrapper))
    positions = wrapper.resolve(PositionProvider)
    nodes = _Nodes()
    module.visit(nodes)
    found = []
    for node in nodes.found:
        for target, what in _classify(node, qualified):
            found.append(Sign(target, path, positions[node].start.line, what))
    return sorted(found, key=lambda s: s.line)


class _Nodes(cst.CSTVisitor):
    def __init__(self) -> None:
        self.found: list[cst.CSTNode] = []

    def visit_Call(self, node: cst.Call) -> None:
        self.found.append(node)

    def visit_Assign(self, node: cst.Assign) -> None:
        self.found.append(node)

    def visit_Dict(self, node: cst.Dict) -> None:
        self.found.append(node)


_KEYWORDS = {"jit_syntax_level", "fullgraph", "dynamic"}


def _candidate(data: bytes) -> bool:
    """Whether the file has the syntax of a sign, by Python's own parser (ten times libcst's speed): only
    then is it parsed with libcst, whose names say what the calls are."""
    try:
        tree = ast.parse(data)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and node.value == _ENV:
            return True
        if isinstance(node, ast.ImportFrom) and any(a.name == "export" for a in node.names):
            return True
        if isinstance(node, ast.Call):
            func = node.func
            if (func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)) == "export":
                return True
            for keyword in node.keywords:
                if keyword.arg in _KEYWORDS or (keyword.arg == "shape" and _ast_none_in(keyword.value)):
                    return True
    return False


def _ast_none_in(value: ast.expr) -> bool:
    elements = value.elts if isinstance(value, ast.List | ast.Tuple) else []
    return any(isinstance(e, ast.Constant) and e.value is None for e in elements)


def _classify(node: cst.CSTNode, qualified) -> list[tuple[Target, str]]:
    if isinstance(node, cst.Assign):
        targets = [t.target for t in node.targets]
        return [(STRICT, _ENV)] if any(_is_env_key(t) for t in targets) and _strict_env(node.value) else []
    if isinstance(node, cst.Dict):
        return [(STRICT, _ENV) for e in node.elements
                if isinstance(e, cst.DictElement) and _is_string(e.key, _ENV) and _strict_env(e.value)]  # fmt: skip
    assert isinstance(node, cst.Call)
    names = imported_names(qualified, node.func)
    found = []
    if names & EXPORTS:
        found.append((EXPORT, f"{_code(node.func)}(...)"))
    if names & {_TENSOR} and any(_has_none(a.value) for a in node.args if _keyword(a) == "shape"):
        found.append((DYNAMIC, f"{_code(node.func)}(shape=[None, ...])"))
    if any(n.startswith("mindspore.") for n in names):
        for arg in node.args:
            if _keyword(arg) == "jit_syntax_level" and _strict_level(arg.value, qualified):
                found.append((STRICT, "jit_syntax_level"))
            if names & _JIT and _keyword(arg) == "fullgraph" and _is_true(arg.value):
                found.append((STRICT, "jit(fullgraph=True)"))
            if names & _JIT and _keyword(arg) == "dynamic" and _is_true(arg.value):
                found.append((DYNAMIC, "jit(dynamic=...)"))
    if (isinstance(node.func, cst.Attribute) and node.func.attr.value in ("setdefault", "putenv")) or (
        imported_names(qualified, node.func) & {"os.putenv"}
    ):
        if len(node.args) >= 2 and _is_string(node.args[0].value, _ENV) and _strict_env(node.args[1].value):
            found.append((STRICT, _ENV))
    return found


def _keyword(arg: cst.Arg) -> str | None:
    return arg.keyword.value if arg.keyword else None


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def _string(node: cst.CSTNode) -> str | None:
    if isinstance(node, cst.SimpleString | cst.ConcatenatedString):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


def _is_string(node: cst.CSTNode | None, text: str) -> bool:
    return node is not None and _string(node) == text


def _is_env_key(target: cst.BaseExpression) -> bool:
    """`os.environ["MS_DEV_JIT_SYNTAX_LEVEL"]` (or any mapping of environment variables under that key)."""
    if not isinstance(target, cst.Subscript) or len(target.slice) != 1:
        return False
    index = target.slice[0].slice
    return isinstance(index, cst.Index) and _is_string(index.value, _ENV)


def _strict_env(value: cst.BaseExpression) -> bool:
    text = _string(value)
    return text is not None and text.strip().upper() in ("0", "STRICT")


def _strict_level(value: cst.BaseExpression, qualified) -> bool:
    """`ms.STRICT`, `context.STRICT`, `0`, `"STRICT"`."""
    if isinstance(value, cst.Integer):
        return value.evaluated_value == 0
    if _string(value) is not None:
        return _string(value).strip().upper() == "STRICT"  # type: ignore[union-attr]
    return any(n.startswith("mindspore.") and n.endswith(".STRICT") for n in imported_names(qualified, value))


def _is_true(value: cst.BaseExpression) -> bool:
    if isinstance(value, cst.Name):
        return value.value == "True"
    return isinstance(value, cst.Integer) and value.evaluated_value != 0


def _has_none(value: cst.BaseExpression) -> bool:
    if not isinstance(value, cst.List | cst.Tuple):
        return False
    return any(isinstance(e.value, cst.Name) and e.value.value == "None" for e in value.elements)
