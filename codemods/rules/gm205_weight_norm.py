from __future__ import annotations

import libcst as cst

from graphmend.builders import fresh_name
from graphmend.calls import dotted_name
from graphmend.finding import Import
from graphmend.messages import explains
from graphmend.rule import Rule
from graphmend.rules.gm201_set_data import SetData
from graphmend.targets import DYNAMIC, EXPORT, GRAPH, STRICT, breaks
from graphmend.tree import find

# mindnlp 0.3.1's two `weight_norm`s → what their `construct` does in graph mode, and their defaults
_FUNCTIONAL = "mindnlp.modules.functional.weight_norm"
_HOOKS = "mindnlp.modules.weight_norm"
_HOW = {
    _FUNCTIONAL: "replaces the Cell's `construct` with one that recomputes the weight in numpy (`asnumpy`) and "
    "stores it with `Parameter.set_data`, which graph mode rejects (\"the 'Parameter' object's method "
    "'set_data' is not supported in 'construct'\"; STRICT and export: \"cannot get attributes set_data\")",
    _HOOKS: "recomputes the weight in a forward pre-hook that creates a `Parameter` and binds it with "
    "`nonlocal`, which graph mode does not compile (\"Unsupported statement 'Nonlocal'\")",
}
# the hook version's undo looks for its hook: a Cell given the graph-native version has none
_INCOMPATIBLE = {_HOOKS: (f"{_HOOKS}.remove_weight_norm", f"{_HOOKS}.WeightNorm")}

_CONSTRUCT = '''
def {construct}(self, *args, **kwargs):
    """{name}'s `construct`: the weight set to g * v / ||v||, then the Cell's own `construct`."""
    v = getattr(self, self.wn_name + "_v")
    g = getattr(self, self.wn_name + "_g")
    {assign}(getattr(self, self.wn_name), v * (g / (v * v).sum(axis=self.wn_axes, keepdims=True).sqrt()))
    return self.wn_construct(*args, **kwargs)
'''
_WEIGHT_NORM = '''
def {name}(cell, name="weight", {dim}):
    """mindnlp's `weight_norm` as graph mode compiles it, written by graphmend (GM205) in place of
    {origin}'s: the same `<name>_g` and `<name>_v` Parameters,
    and a `construct` that computes the weight with ops."""
{resolve}    weight = getattr(cell, name)
    axes = tuple(range(weight.ndim))
    if dim != -1:
        axes = tuple(i for i in axes if i != dim % weight.ndim)
    setattr(cell, name + "_g", {parameter}((weight * weight).sum(axis=axes, keepdims=dim != -1).sqrt()))
    setattr(cell, name + "_v", {parameter}(weight.value().copy()))
    cell.wn_name, cell.wn_dim, cell.wn_axes = name, dim, axes
    cell.wn_construct = cell.construct
    cell.construct = {method_type}({construct}, cell)
    return cell
'''
_SIGNATURE = {
    _FUNCTIONAL: ("dim=-1, axis=None", "    if axis is not None:\n        dim = axis\n"),
    _HOOKS: ("dim=0", "    if dim is None:\n        dim = -1\n"),
}


class WeightNormHijack(Rule):
    """mindnlp's `weight_norm`, which graph mode cannot compile → a graph-native one defined in the file.

    What it does:
        Finds `from mindnlp.modules.functional.weight_norm import weight_norm` (or
        `mindnlp.modules.weight_norm`'s, the hook version) in a file that calls it, and replaces the import
        with a function of the same name and signature, written into the file after its imports (with the
        `construct` it gives a Cell). The call sites stay as they are: `self.conv = weight_norm(self.conv,
        name="weight", dim=2)` now gives the Cell the same `weight_g` and `weight_v` Parameters (the norm
        of the weight over every axis but `dim`, and the weight), and a `construct` that first sets the
        weight to `g * v / ||v||` with `ops.assign`, then runs the Cell's own `construct`. Reported
        without a fix: a file that also uses the hook version's `remove_weight_norm` or `WeightNorm`
        (they look for the hook), an import that shares its line with other statements, and calls that
        reach the function otherwise (`wn.weight_norm(...)` of a module import, an import in a function).

    Why it breaks graph mode:
        mindnlp 0.3.1's functional `weight_norm` (wav2vec2, HuBERT) hijacks the Cell's `construct` with one
        that computes the weight in numpy and stores it with `Parameter.set_data`: PyNative runs it, GRAPH
        fails ("the 'Parameter' object's method 'set_data' is not supported in 'construct'") and STRICT and
        export fail ("cannot get attributes set_data"), measured in bench/realcells (HuBERT and wav2vec2's
        `EncoderStableLayerNorm`, once their own file is fixed) and on tests/verify_rules/weight_norm/. Its
        hook version (encodec) registers a forward pre-hook that binds a new Parameter through `nonlocal`:
        every mode fails with "Unsupported statement 'Nonlocal'" (bench/realcells, mindnlp's
        `EncodecConv1d`). MindSpore 2.10 has no weight normalization of its own to call instead.

    Example:
        from mindnlp.modules.functional.weight_norm import weight_norm
        # becomes (the import line goes; after the imports)
        def _weight_norm_construct(self, *args, **kwargs):
            v = getattr(self, self.wn_name + "_v")
            g = getattr(self, self.wn_name + "_g")
            ops.assign(getattr(self, self.wn_name), v * (g / (v * v).sum(axis=self.wn_axes, keepdims=True).sqrt()))
            return self.wn_construct(*args, **kwargs)

        def weight_norm(cell, name="weight", dim=-1, axis=None):
            ...  # the `weight_g`/`weight_v` Parameters, and `construct` above in place of the Cell's

    Fix safety:
        Safe: the forward numbers are the original's in PyNative up to float32 rounding (the norm is summed
        by MindSpore instead of numpy: `graphmend verify` of the case below gives a max abs difference of
        6e-8, tests/test_gm205_weight_norm.py bounds it at 1e-5), the Cell's
        Parameters have the original's names, shapes and dtypes (`conv.weight`, `conv.weight_g`,
        `conv.weight_v`, so checkpoints load as before), each call leaves the weight Parameter as the
        original's `set_data` did, and gradients reach the same Parameters (the weight; neither version
        sends any to g or v). The fix sets `wn_name`, `wn_dim` and `wn_construct` as the functional module
        does, which its `remove_weight_norm` reads (not measured). The hook version's Parameters
        come in another order (`weight` first, as before the hook).
    """

    CODE = "GM205"
    NAME = "weight-norm-hijack"
    BREAKS = breaks(GRAPH, STRICT, DYNAMIC, EXPORT)
    EXPLAINS = (
        *SetData.EXPLAINS,  # the functional version's hijacked construct calls `Parameter.set_data`
        # the hook version (bench/realcells: mindnlp's EncodecConv1d, in every mode)
        explains(r"Unsupported statement 'Nonlocal'", GRAPH, STRICT, DYNAMIC, EXPORT),
    )
    FIX = "safe"
    VISITS = "module"

    @classmethod
    def may_find(cls, facts) -> bool:
        return b"weight_norm" in facts.data  # the import it replaces names it

    def visit_Module(self, node: cst.Module) -> None:
        if "weight_norm" not in self.ctx.source:  # most files never name it
            return
        calls = find(node, cst.Call)  # walked once: each origin's calls are picked from it
        handled: set[str] = set()
        for line in node.body:  # an import in a function or under `try`: its calls are reported below
            for small in line.body if isinstance(line, cst.SimpleStatementLine) else ():
                if isinstance(small, cst.ImportFrom) and not small.relative and small.module is not None:
                    origin = dotted_name(small.module)
                    if origin in _HOW and not isinstance(small.names, cst.ImportStar):
                        for alias in small.names:
                            if dotted_name(alias.name) == "weight_norm":
                                handled.add(origin)
                                self._check(node, line, small, alias, origin, calls)
        for origin in _HOW.keys() - handled:  # `wn.weight_norm(...)`, an import the fix cannot replace
            for call in calls:
                if f"{origin}.weight_norm" in self.ctx.names(call.func):
                    self.report(
                        call,
                        f"mindnlp's `weight_norm` (`{origin}`) {_HOW[origin]}; import it by name at the top of the "
                        f"file (`from {origin} import weight_norm`) for graphmend to replace it with one that graph "
                        "mode compiles, or write one by hand (g * v / ||v|| with ops, `ops.assign` to the weight)",
                    )

    def _check(self, module, line, statement, alias, origin: str, every_call) -> None:
        bound = alias.asname.name.value if alias.asname else "weight_norm"  # type: ignore[union-attr]
        target = f"{origin}.weight_norm"
        calls = [c for c in every_call if target in self.ctx.names(c.func)]
        if not calls:
            return  # imported and never called: nothing runs it
        lines = sorted({self.ctx.positions[c].start.line for c in calls})
        at = ", ".join(map(str, lines[:5])) + (", …" if len(lines) > 5 else "")
        at = ("line " if len(lines) == 1 else "lines ") + at
        head = f"mindnlp's `weight_norm` (`{origin}`, called at {at}) {_HOW[origin]}"
        why_not = None
        if len(line.body) != 1:
            why_not = "the import shares its line with other statements"
        elif any(n & set(_INCOMPATIBLE.get(origin, ())) for n in map(self.ctx.names, find(module, cst.Name))):
            why_not = (
                "the file also uses the hook version's `remove_weight_norm` or `WeightNorm` (they look for its hook)"
            )
        elif any(isinstance(s, (cst.FunctionDef, cst.ClassDef)) and s.name.value == bound for s in module.body):
            why_not = f"the file defines its own `{bound}` too"
        code = None if why_not else self._definitions(module, bound, origin)
        if code is None:
            why_not = why_not or "`types` means something else in this file"
            self.report(
                alias,
                f"{head}; write a weight norm that graph mode compiles (g * v / ||v|| with ops, and `ops.assign` "
                f"to the weight in `construct`) by hand: {why_not}",
            )
            return
        definitions, imports = code
        names = [a for a in statement.names if a is not alias]  # type: ignore[union-attr]
        if names:
            names[-1] = names[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
            replacement = line.with_changes(body=[statement.with_changes(names=names)])
        else:
            replacement = cst.RemovalSentinel.REMOVE
        self.report(
            alias,
            f"{head}; the fix defines `{bound}` in this file with the same Parameters (`<name>_g`, `<name>_v`) and "
            "a `construct` that computes the weight with ops and `ops.assign`, which every mode compiles",
            replacement,
            "safe",
            imports,
            target=line,
            definitions=definitions,
        )

    def _definitions(self, module, bound: str, origin: str) -> tuple[tuple[str, ...], tuple[Import, ...]] | None:
        bindings = self.ctx.bindings
        imports: list[Import] = []
        types = bindings.name_for("types")
        if types is None:
            if not bindings.is_free("types"):
                return None
            types = "types"
            imports.append(("types", None))
        spelled = {}
        for key, target in (("assign", "mindspore.ops.assign"), ("parameter", "mindspore.Parameter")):
            name = bindings.name_for(target)
            if name is None:
                reference, needed = bindings.reference(target)
                name = cst.Module([]).code_for_node(reference)
                if needed is not None:
                    imports.append(needed)
            spelled[key] = name
        taken = {n.value for n in find(module, cst.Name)}
        construct = fresh_name(f"_{bound}_construct", taken)
        dim, resolve = _SIGNATURE[origin]
        return (
            _CONSTRUCT.format(construct=construct, name=f"`{bound}`", assign=spelled["assign"]).lstrip(),
            _WEIGHT_NORM.format(
                name=bound,
                origin=f"`{origin}`",
                dim=dim,
                resolve=resolve,
                parameter=spelled["parameter"],
                method_type=f"{types}.MethodType",
                construct=construct,
            ).lstrip(),
        ), tuple(imports)
