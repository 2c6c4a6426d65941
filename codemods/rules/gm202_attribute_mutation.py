from __future__ import annotations

import libcst as cst

from codemods.rule import Rule
from codemods.targets import EXPORT, STRICT, breaks

_PARAMETERS = {"mindspore.Parameter", "mindspore.ParameterTuple"}
# values that are certainly not a Parameter when `__init__` assigns them
_PLAIN = (
    cst.Integer, cst.Float, cst.SimpleString, cst.ConcatenatedString, cst.FormattedString,
    cst.List, cst.Tuple, cst.Dict, cst.Set, cst.ListComp, cst.DictComp, cst.SetComp,
)  # fmt: skip


class AttributeMutation(Rule):
    """`self.attr = value` in graph code where `attr` is not a Parameter.

    What it does:
        Reports assignments (`=`, `+=`, unpacking) to an attribute of the Cell inside `construct` (and
        other graph code) when `__init__` sets that attribute to a plain value — a number, a string, `None`,
        a container, a `Tensor(...)` — or does not set it at all. Attributes declared as `Parameter` in
        `__init__` are fine and not reported; neither are attributes `__init__` sets from calls graphmend
        cannot see into.

    Why it breaks graph mode:
        A compiled graph can only update state that lives in Parameters. LAX syntax runs the assignment
        through the Python fallback (the Python attribute changes as in PyNative), but STRICT syntax and
        MindIR export reject it: "if need to modify a member attribute of a class with self.calls, the
        member attribute must be of the Parameter type".

    Example:
        self.calls = self.calls + 1          # self.calls = 0 in __init__
        # becomes, by hand
        ops.assign_add(self.calls, 1)        # self.calls = Parameter(Tensor(0, ms.int32), requires_grad=False)

    Fix safety:
        No fix: whether the value is state that must outlive the call (make it a Parameter and update it with
        `ops.assign`) or a scratch value (use a local variable) is a design decision.
    """

    CODE = "GM202"
    NAME = "attribute-mutation"
    BREAKS = breaks(STRICT, EXPORT, note="LAX keeps the attribute on the host")
    FIX = "none"

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._check(target.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._check(node.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self._check(node.target)

    def _check(self, target: cst.BaseExpression) -> None:
        if isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                self._check(element.value)
            return
        if not (isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name)):
            return
        if target.value.value != "self" or self.ctx.current is None or self.ctx.current.cell is None:
            return
        plain = self._plain_value(target.attr.value)
        if plain is None:
            return
        attr = f"self.{target.attr.value}"
        was = (
            f"`__init__` sets it to `{self.ctx.code(plain)}`" if plain is not _UNSET else "it is not set in `__init__`"
        )
        self.report(
            target,
            f"`{attr}` is assigned in {self.ctx.where()} but is not a Parameter ({was}): STRICT syntax and "
            f'MindIR export reject this ("the member attribute must be of the Parameter type"); keep the value '
            f"in a local variable, or declare `{attr}` a Parameter in `__init__` and update it with `ops.assign`",
        )

    def _plain_value(self, attr: str) -> cst.BaseExpression | None:
        """What makes `attr` a plain attribute: the value `__init__` gives it, `_UNSET`, or None (don't know)."""
        cell = self.ctx.current.cell  # type: ignore[union-attr]
        known = self._attributes(cell)
        if known is None:
            return None
        values = known.get(attr, [])
        if not values:
            return _UNSET
        if all(self._is_plain(v) for v in values):
            return values[0]
        return None

    def _attributes(self, cell: cst.ClassDef) -> dict[str, list[cst.BaseExpression]] | None:
        """`self.x = value` of the Cell and its same-file bases; None if a base is out of sight."""
        by_name = {cls.name.value: cls for cls in self.ctx.cell_classes}
        merged: dict[str, list[cst.BaseExpression]] = {}
        todo, seen = [cell], set()
        while todo:
            cls = todo.pop()
            if cls.name.value in seen:
                continue
            seen.add(cls.name.value)
            for name, values in self.values.attributes(cls).items():
                merged.setdefault(name, []).extend(values)
            for base in (arg.value for arg in cls.bases if arg.keyword is None):
                if isinstance(base, cst.Name) and base.value in by_name:
                    todo.append(by_name[base.value])
                elif not any(n.startswith("mindspore.nn.") for n in self.ctx.names(base)):
                    return None  # a base from another file may declare the Parameter
        return merged

    def _is_plain(self, value: cst.BaseExpression) -> bool:
        if isinstance(value, _PLAIN):
            return True
        if isinstance(value, cst.Name):
            return value.value in ("None", "True", "False")
        if isinstance(value, cst.UnaryOperation):
            return self._is_plain(value.expression)
        if isinstance(value, cst.Call):
            return self.values.is_constant_tensor(value) and not self.ctx.names(value.func) & _PARAMETERS
        return False


_UNSET = cst.Name("None")  # marker: the attribute is not set outside graph code
