from __future__ import annotations

import libcst as cst

from graphmend.builders import arg, call
from graphmend.messages import explains
from graphmend.numpy_calls import bind
from graphmend.rule import Rule
from graphmend.targets import EXPORT, breaks
from graphmend.tree import find, single_assign
from graphmend.vocabulary import PARAMETER_LAYERS

# nn.LayerNorm's parameters, in order, and the defaults its fix writes out (ops.LayerNorm's differ: 1, 1)
_LAYER_NORM = ("normalized_shape", "begin_norm_axis", "begin_params_axis", "gamma_init", "beta_init", "epsilon",
               "dtype")  # fmt: skip
_DEFAULTS = {"begin_norm_axis": "-1", "begin_params_axis": "-1", "epsilon": "1e-7"}
_INITS = {"gamma_init": "ones", "beta_init": "zeros"}


class LayerBuiltInGraph(Rule):
    """A `mindspore.nn` layer with Parameters built in graph code: `nn.LayerNorm` → `ops.LayerNorm`, others reported.

    What it does:
        Finds `nn.LayerNorm(...)`, `nn.Dense(...)`, `nn.Conv2d(...)`, the norms, `nn.Embedding(...)` and
        the other `mindspore.nn` layers that create Parameters (vocabulary.PARAMETER_LAYERS), constructed
        inside `construct` or other graph code. `nn.LayerNorm` with its default `gamma_init`/`beta_init`,
        used once (`nn.LayerNorm(s, ...)(x)`, or bound to a local name called once), is rewritten to what
        it computes: `ops.LayerNorm(begin_norm_axis=a, begin_params_axis=b, epsilon=e)(x, ops.ones(s,
        x.dtype), ops.zeros(s, x.dtype))[0]` (the name's assignment goes). Other layers are reported: build
        them in `__init__`. Layers without Parameters (`nn.CrossEntropyLoss()`, `nn.Softmax(axis=-1)`)
        are left alone: they passed every check (below).

    Why it breaks graph mode:
        Measured on MindSpore 2.10 (CPU; tests/verify_rules/host_data/gm206_layer_built_in_graph.py, and
        mindocr's MultiAspectGCAttention, whose `channel_concat` branch builds its `nn.LayerNorm` from the
        input's height and width, in bench/realcells): GRAPH, STRICT and a dynamic batch pass, and
        `mindspore.export` fails with "There's a mindspore.Parameter that wasn't created in nn.Cell, and
        mindspore.export() does not support exporting such Parameters" (`nn.LayerNorm` and `nn.Dense`).
        Such a layer also gets new weights on every call: a trained value never reaches it.
        `nn.CrossEntropyLoss()` and `nn.Softmax(axis=-1)` built in `construct` passed all four checks,
        so they are not reported. `ops.layer_norm` is no way out on CPU ("Unsupported op [LayerNormExt]
        on CPU", measured); the `ops.LayerNorm` primitive passes every check.

    Example:
        layer_norm = nn.LayerNorm([self.inplanes, H, W], begin_norm_axis=1, begin_params_axis=1)
        out = layer_norm(out)
        # becomes
        out = ops.LayerNorm(begin_norm_axis=1, begin_params_axis=1, epsilon=1e-7)(
            out, ops.ones([self.inplanes, H, W], out.dtype), ops.zeros([self.inplanes, H, W], out.dtype))[0]

    Fix safety:
        Safe: it is `nn.LayerNorm.construct` with the layer's fresh gamma (ones) and beta (zeros) cast to
        the input's dtype, as the layer casts them; `nn.LayerNorm`'s defaults (-1, -1, 1e-7) are written
        out, since `ops.LayerNorm`'s axes default to 1. The verifier case passes every check after, with
        PyNative's numbers. No fix when the input or the shape is not a plain value (it is written three
        and two times), when an initializer is given, or when the layer is used more than once.
    """

    CODE = "GM206"
    NAME = "layer-built-in-graph"
    BREAKS = breaks(EXPORT, note="a layer with Parameters built in graph code")
    EXPLAINS = (explains(r"There's a mindspore\.Parameter that wasn't created in nn\.Cell", EXPORT),)
    FIX = "safe"

    def visit_Call(self, node: cst.Call) -> None:
        if not isinstance(node.func, cst.Name | cst.Attribute):  # `nn.Dense(4, 2)(x)` is reported once, inside
            return
        names = self.ctx.names(node.func)
        layer = next((n for n in names if n.startswith("mindspore.nn.") and n.rpartition(".")[2] in PARAMETER_LAYERS),
                     None)  # fmt: skip
        if layer is None:
            return
        short = layer.rpartition(".")[2]
        message = (
            f"`{self.ctx.code(node)}` in {self.ctx.where()} builds a layer with Parameters each time the graph "
            'runs: `mindspore.export` fails ("a mindspore.Parameter that wasn\'t created in nn.Cell") and its '
            "weights are new on every call"
        )
        if short != "LayerNorm":
            self.report(node, message + f"; build the `nn.{short}` in `__init__`")
            return
        fix, why = self._layer_norm(node)
        if fix is None:
            self.report(node, message + f"; build it in `__init__` (no fix: {why})")
            return
        replacement, target, imports = fix
        self.report(node, message + "; `ops.LayerNorm` with its gamma and beta computes the same", replacement,
                    "safe", imports, target)  # fmt: skip

    def _layer_norm(self, node: cst.Call):
        given, why = bind(node, _LAYER_NORM)
        if why or "normalized_shape" not in given:
            return None, why or "no `normalized_shape`"
        for name, init in _INITS.items():
            value = given.get(name)
            if value is not None and not (isinstance(value, cst.SimpleString) and value.evaluated_value == init):
                return None, f"`{name}=` is given"
        shape = given["normalized_shape"]
        if not self.values.is_pure(shape) or not self.values.is_pure(given.get("dtype", cst.Name("None"))):
            return None, "the shape is computed here"
        use = self._applied(node)
        if use is None:
            return None, "the layer is used otherwise than called once"
        applied, statement, block = use
        if len(applied.args) != 1 or applied.args[0].keyword or applied.args[0].star:
            return None, "the layer is not called with one input"
        x = applied.args[0].value
        if not self.values.is_pure(x):
            return None, "its input is computed in the call"
        primitive, needed = self.ctx.bindings.reference("mindspore.ops.LayerNorm")
        ones, needs_ones = self.ctx.bindings.reference("mindspore.ops.ones")
        zeros, needs_zeros = self.ctx.bindings.reference("mindspore.ops.zeros")
        settings = [
            arg(given[k] if k in given else cst.parse_expression(default), k) for k, default in _DEFAULTS.items()
        ]
        dtype = cst.Attribute(x, cst.Name("dtype"))
        computed = cst.Subscript(
            call(
                call(primitive, settings),
                [arg(x), arg(call(ones, [arg(shape), arg(dtype)])), arg(call(zeros, [arg(shape), arg(dtype)]))],
            ),  # fmt: skip
            [cst.SubscriptElement(cst.Index(cst.Integer("0")))],
        ).with_changes(lpar=applied.lpar, rpar=applied.rpar)
        imports = (needed, needs_ones, needs_zeros)
        if statement is None:
            return (computed, applied, imports), ""
        return (self._without(block, statement, applied, computed), block, imports), ""

    def _applied(self, node: cst.Call):
        """The call of the layer `node` builds, and, for `name = nn.LayerNorm(...)`, that statement and its block:
        `nn.LayerNorm(...)(x)`, or the one use of a local name bound once, a call in a later statement of the
        same block."""
        parent = self.ctx.parents.get(node)
        if isinstance(parent, cst.Call) and parent.func is node:
            return parent, None, None
        assign = self.ctx.parents.get(parent) if isinstance(parent, cst.Assign) else None
        if assign is None or parent.value is not node or len(parent.targets) != 1:
            return None
        target = parent.targets[0].target
        block = self.ctx.parents.get(assign)
        if not isinstance(target, cst.Name) or single_assign(assign) is not parent:
            return None
        if not isinstance(block, cst.IndentedBlock) or len(self.values.bindings(target.value)) != 1:
            return None
        function = self.ctx.current.node if self.ctx.current else None
        uses = [n for n in find(function, cst.Name) if n.value == target.value and n is not target] if function else []
        if len(uses) != 1:
            return None
        applied = self.ctx.parents.get(uses[0])
        if not isinstance(applied, cst.Call) or applied.func is not uses[0]:
            return None
        i = next(k for k, s in enumerate(block.body) if s is assign)
        if not any(c is applied for s in block.body[i + 1 :] for c in find(s, cst.Call)):
            return None
        return applied, assign, block

    @staticmethod
    def _without(
        block: cst.IndentedBlock, statement: cst.SimpleStatementLine, applied: cst.Call, computed: cst.BaseExpression
    ) -> cst.IndentedBlock:
        """`block` without `statement` (its comment lines go to the next one), with `applied` → `computed`."""
        body = list(block.body)
        i = next(k for k, s in enumerate(body) if s is statement)
        body[i + 1] = body[i + 1].with_changes(leading_lines=[*statement.leading_lines, *body[i + 1].leading_lines])
        del body[i]
        return block.with_changes(body=body).deep_replace(applied, computed)  # type: ignore[return-value]
