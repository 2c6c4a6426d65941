from __future__ import annotations

import libcst as cst
from libcst.metadata import BuiltinAssignment

from graphmend.messages import explains
from graphmend.rule import Rule
from graphmend.targets import DYNAMIC, EXPORT, GRAPH, STRICT, breaks


class ClassmethodInGraph(Rule):
    """A `@classmethod` of a Cell that graph code calls → a `@staticmethod`.

    What it does:
        Finds the methods of a Cell decorated with the builtin `classmethod` that construct (or a graph
        function it calls) calls, and rewrites each into a `@staticmethod` without its `cls` parameter:
        where the body never reads `cls`, that is all; where it does, each `cls` becomes the class's own
        name (unsafe, see below).

    Why it breaks graph mode:
        The graph compiler does not bind `cls`: it calls the function with the arguments it was given and
        finds one missing. Measured on MindSpore 2.10 (bench/limits, row 13; tests/verify_rules/limits/
        gm610_classmethod_in_graph.py): `self.scale(x)` on a `@classmethod def scale(cls, x)` fails in
        GRAPH (LAX), STRICT, a dynamic batch and export with "TypeError: The parameters number of the
        function is 2, but the number of provided arguments is 1."; a `@staticmethod` passes everywhere
        with PyNative's numbers. Called through the class (`type(self).scale(x)`, `self.__class__.scale(x)`,
        `Net.scale(x)` for a Cell class of the same file) it fails the same way in all four, and the
        static method passes all four (tests/test_verify_limits.py, the Cell ThroughTheClass); graph-code
        discovery follows those calls, so the rule finds them too.

    Example:
        @classmethod
        def scale(cls, x):
            return x * 2
        # becomes
        @staticmethod
        def scale(x):
            return x * 2

    Fix safety:
        Safe when the body never reads `cls`: every caller (`self.scale(x)`, `Net.scale(x)`, a subclass,
        `super().scale(x)`) passes the same arguments to a static method as to a class method, and gets
        the same result. Unsafe when it does: `cls` becomes the defining class's name, which is what it
        was for calls on this class and its instances, but a subclass that inherits the method and
        overrides what it reads through `cls` would now get the base's. A `cls` rebound inside the body,
        or a method with no positional parameter, is reported without a fix.
    """

    CODE = "GM610"
    NAME = "classmethod-in-graph"
    BREAKS = breaks(GRAPH, STRICT, DYNAMIC, EXPORT, note="the compiler does not pass `cls`")
    EXPLAINS = (
        explains(
            r"The parameters number of the function is \d+, but the number of provided arguments is \d+",
            GRAPH,
            STRICT,
            DYNAMIC,
            EXPORT,
        ),
    )
    FIX = "safe/unsafe"

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        current = self.ctx.current
        if current is None or node is not current.node or current.cell is None:
            return False  # only the graph method itself, not functions nested in it
        decorator = next((d for d in node.decorators if self._is_classmethod(d)), None)
        if decorator is None:
            return False
        message = (
            f'{self.ctx.where()} is a `@classmethod`: graph mode does not pass `cls` ("The parameters number of '
            'the function is 2, but the number of provided arguments is 1"); make it a `@staticmethod`'
        )
        positional = [*node.params.posonly_params, *node.params.params]
        if not positional:
            self.report(node, message + " (it takes no `cls` parameter: rewrite by hand)")
            return False
        first = positional[0]
        reads = self._reads(first)
        if reads is None:
            self.report(node, message + f" (`{first.name.value}` is rebound in the body: rewrite by hand)")
            return False
        static = decorator.with_changes(decorator=cst.Name("staticmethod"))
        replacement = node.with_changes(
            decorators=[static if d is decorator else d for d in node.decorators],
            params=_without_first(node.params),
        )
        if not reads:
            self.report(node, message + f"; its body never reads `{first.name.value}`", replacement, "safe")
            return False
        owner = current.cell.name.value
        replacement = replacement.visit(_Rename({id(n) for n in reads}, owner))  # the body's nodes are shared
        self.report(
            node,
            message + f", with `{first.name.value}` read as `{owner}`: a subclass that inherits it would now get "
            f"`{owner}`'s attributes, not its own",
            replacement,
            "unsafe",
        )
        return False

    def _is_classmethod(self, decorator: cst.Decorator) -> bool:
        target = decorator.decorator
        if not (isinstance(target, cst.Name) and target.value == "classmethod"):
            return False
        scope = self.ctx.scopes.get(target)  # a class scope: its lookup goes on to the module and builtins
        return scope is not None and all(isinstance(a, BuiltinAssignment) for a in scope[target.value])

    def _reads(self, param: cst.Param) -> list[cst.Name] | None:
        """The Names that read the parameter in the body; None when it is assigned again."""
        scope = self.ctx.scopes.get(param.name)
        if scope is None:
            return None
        assigned = list(scope.assignments[param.name.value])
        if len(assigned) != 1 or getattr(assigned[0], "node", None) is not param:
            return None  # rebound in the body
        names = []
        for access in assigned[0].references:
            if not isinstance(access.node, cst.Name):
                return None
            names.append(access.node)
        return names


def _without_first(params: cst.Parameters) -> cst.Parameters:
    if params.posonly_params:
        return params.with_changes(posonly_params=params.posonly_params[1:])
    return params.with_changes(params=params.params[1:])


class _Rename(cst.CSTTransformer):
    """Each Name among `targets` (by identity) becomes `name`."""

    def __init__(self, targets: set[int], name: str) -> None:
        super().__init__()
        self.targets, self.name = targets, name

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.Name:
        return updated_node.with_changes(value=self.name) if id(original_node) in self.targets else updated_node
