"""Building the code fixes put in place: calls, arguments, tuples, parenthesized operands.

Each builder keeps the formatting of the pieces it is given (a value's own comments and spacing) and
writes the glue the way the rest of the file would (`, ` between arguments, `(a,)` for one element).
"""

from __future__ import annotations

import libcst as cst


def as_tuple(values: list[cst.BaseExpression]) -> cst.Tuple:
    """`(a, b)` (or `(a,)`) from argument values, keeping each value's own formatting."""
    elements = [cst.Element(v, comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))) for v in values]
    last = elements[-1].with_changes(comma=cst.Comma() if len(values) == 1 else cst.MaybeSentinel.DEFAULT)
    return cst.Tuple([*elements[:-1], last])


def arg(value: cst.BaseExpression, keyword: str | None = None) -> cst.Arg:
    """A call argument `value` (or `keyword=value`); a receiver's parentheses `(a + b)` are dropped."""
    if value.lpar and not isinstance(value, cst.Tuple | cst.GeneratorExp | cst.Yield):
        value = value.with_changes(lpar=[], rpar=[])
    if keyword is None:
        return cst.Arg(value)
    return cst.Arg(
        value,
        keyword=cst.Name(keyword),
        equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")),
    )


def call(func: cst.BaseExpression, args: list[cst.Arg]) -> cst.Call:
    """`func(a, b, c)` with `, ` between the arguments."""
    comma = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
    spaced = [a.with_changes(comma=comma) for a in args[:-1]] + [args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)]
    return cst.Call(func, spaced)


def tuple_of(data: cst.List | cst.Tuple) -> cst.Tuple:
    """`[a, b]` or `(a, b)` → `(a, b)` with the same elements; one element keeps its comma: `(a,)`."""
    elements = list(data.elements)
    last = elements[-1]
    if len(elements) == 1 and last.comma is cst.MaybeSentinel.DEFAULT:
        elements[-1] = last.with_changes(comma=cst.Comma())
    return cst.Tuple(elements)


def parenthesized(node: cst.BaseExpression) -> cst.BaseExpression:
    """`node` in parentheses."""
    return node.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


def atom(node: cst.BaseExpression) -> cst.BaseExpression:
    """`node`, parenthesized unless it binds tighter than `*` and `+` already."""
    atoms = (cst.Name, cst.Attribute, cst.Call, cst.Subscript, cst.Integer, cst.Float, cst.Tuple, cst.List)
    if node.lpar or isinstance(node, atoms) or _negative_number(node):
        return node
    return parenthesized(node)


def _negative_number(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.UnaryOperation) and isinstance(node.expression, (cst.Integer, cst.Float))


def assign_line(name: str, value: cst.BaseExpression) -> cst.SimpleStatementLine:
    """`name = value` as a statement line of its own."""
    return cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name(name))], value)])


def fresh_name(base: str, taken: set[str]) -> str:
    """`base`, or `base_2`, `base_3`, … : the first that is not in `taken`."""
    name, n = base, 1
    while name in taken:
        n += 1
        name = f"{base}_{n}"
    return name
