from __future__ import annotations

import libcst as cst

from graphmend.builders import fresh_name
from graphmend.messages import explains
from graphmend.rule import FileContext, Rule
from graphmend.scopes import is_self_attribute
from graphmend.targets import EXPORT, breaks
from graphmend.tree import statements

_PARAMETER = "mindspore.Parameter"


class DuplicateParameterName(Rule):
    """Two Parameters of one Cell given the same `name=` → the second named after its attribute.

    What it does:
        Finds a Cell class that assigns `Parameter(..., name="weight")` to two different attributes
        (`self.input_gate_weight` and `self.recurrent_gate_weight`, mindone's RecurrentGemma), the name
        a string literal and `Parameter` MindSpore's (any import spelling). The second and later ones are
        renamed after their attribute (`name="recurrent_gate_weight"`). Left alone: the same attribute
        bound in two branches (`if moe: self.weight = Parameter(…, name="weight") else: …`, one
        Parameter), an attribute deleted before the name is given again (`del self.weight`), names that
        are not literals (f-strings, variables: built at run time, which no static rule can compare).

    Why it breaks graph mode:
        MindIR export refuses two Parameters with one name. Measured on MindSpore 2.10 (bench/limits row
        33, `duplicate_parameter_names`, and the Cell of tests/verify_rules/limits/gm614_duplicate_parameter_name.py):
        PyNative, GRAPH, STRICT and a dynamic batch run with the same numbers; export fails with
        "ValueError: The value of b is Parameter (name=w, …), its name 'w' already exists. Please set a
        unique name for the parameter." With the second Parameter named after its attribute, export
        passes with PyNative's numbers.

    Example:
        self.input_gate_weight = Parameter(w1, name="weight")
        self.recurrent_gate_weight = Parameter(w2, name="weight")
        # becomes
        self.input_gate_weight = Parameter(w1, name="weight")
        self.recurrent_gate_weight = Parameter(w2, name="recurrent_gate_weight")

    Fix safety:
        Unsafe: the numbers stay the same, but a Parameter's name is its key in a checkpoint: a checkpoint
        saved (or converted) under the old name no longer loads into the renamed Parameter. Rename the key
        in the checkpoint too, or suppress the finding where the duplicate never reaches an export.
    """

    CODE = "GM614"
    NAME = "duplicate-parameter-name"
    BREAKS = breaks(EXPORT, note="MindIR export refuses two Parameters with the same name")
    EXPLAINS = (explains(r"its name '(?P<name>[^']+)' already exists\. Please set a unique name", EXPORT),)
    FIX = "unsafe"
    VISITS = "cells"

    @classmethod
    def may_find(cls, facts) -> bool:
        return b"Parameter" in facts.data  # `Parameter(..., name="w")` is spelled with it, however imported

    def __init__(self, ctx: FileContext) -> None:
        super().__init__(ctx)
        self._done: set[cst.ClassDef] = set()

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        # the engine walks each Cell class; a Cell class nested in another is met in both walks
        if node not in self.ctx.cell_classes or node in self._done:
            return False
        self._done.add(node)
        # its own statements: a nested class's are its own (`self` there is another object)
        own = statements(node, into_classes=False)
        deleted = {
            element.value.attr.value  # type: ignore[attr-defined]
            for statement in own
            if isinstance(statement, cst.Del)
            for element in _deleted(statement.target)
            if is_self_attribute(element.value)
        }
        holders: dict[str, str] = {}  # a literal name → the attribute that holds the first Parameter with it
        literals = set()
        found: list[tuple[cst.SimpleString, str, str]] = []
        for assign in own:
            if not isinstance(assign, cst.Assign):
                continue
            named = self._named_parameter(assign)
            if named is None:
                continue
            literal, attr, name = named
            literals.add(name)
            first = holders.setdefault(name, attr)
            if first != attr and first not in deleted:
                found.append((literal, attr, name))
        for literal, attr, name in found:
            unique = fresh_name(attr, literals)
            literals.add(unique)
            quote = literal.quote
            replacement = cst.SimpleString(f"{literal.prefix}{quote}{unique}{quote}")
            self.report(
                literal,
                f"`self.{attr}` in `{node.name.value}` gets the Parameter name '{name}' that `self.{holders[name]}` "
                f"already has: MindIR export fails (\"its name '{name}' already exists\"; PyNative and GRAPH run); "
                f'name it after its attribute: `name="{unique}"` (unsafe: a checkpoint saved under the old name '
                f"no longer loads into it)",
                replacement,
                "unsafe",
            )
        return False

    def _named_parameter(self, assign: cst.Assign) -> tuple[cst.SimpleString, str, str] | None:
        """`self.attr = Parameter(..., name="literal")`: the literal, the attribute and the name."""
        if len(assign.targets) != 1 or not is_self_attribute(assign.targets[0].target):
            return None
        call = assign.value
        if not isinstance(call, cst.Call) or _PARAMETER not in self.ctx.names(call.func):
            return None
        attr = assign.targets[0].target.attr.value  # type: ignore[attr-defined]
        for position, argument in enumerate(call.args):
            named = argument.keyword.value == "name" if argument.keyword is not None else position == 1
            literal = argument.value
            if named and not argument.star and isinstance(literal, cst.SimpleString):
                value = literal.evaluated_value
                return (literal, attr, value) if isinstance(value, str) else None
        return None


def _deleted(target: cst.BaseDelTargetExpression) -> list[cst.Element]:
    if isinstance(target, cst.Tuple | cst.List):
        return list(target.elements)
    return [cst.Element(target)]
