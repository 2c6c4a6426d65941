from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from graphmend.builders import fresh_name
from graphmend.messages import explains
from graphmend.rule import Rule
from graphmend.scopes import is_self_attribute
from graphmend.targets import EXPORT, STRICT, breaks
from graphmend.tree import find, single_assign, target_names

_PARAMETERS = {"mindspore.Parameter", "mindspore.ParameterTuple"}
# values that are certainly not a Parameter when `__init__` assigns them
_PLAIN = (
    cst.Integer, cst.Float, cst.SimpleString, cst.ConcatenatedString, cst.FormattedString,
    cst.List, cst.Tuple, cst.Dict, cst.Set, cst.ListComp, cst.DictComp, cst.SetComp,
)  # fmt: skip


class AttributeMutation(Rule):
    """`self.attr = value` in graph code where `attr` is not a Parameter → a local variable where it is scratch.

    What it does:
        Reports assignments (`=`, `+=`, unpacking) to an attribute of the Cell inside `construct` (and
        other graph code) when `__init__` sets that attribute to a plain value — a number, a string, `None`,
        a container, a `Tensor(...)` — or does not set it at all. Attributes declared as `Parameter` in
        `__init__` are fine and not reported; neither are attributes `__init__` sets from calls graphmend
        cannot see into. Three forms are fixed, when no other method, subclass or code of the file reads
        the attribute (`.attr` appears nowhere else but in `__init__`) and the method's first use of it is
        a top-level assignment: a value computed and read only later in the same call becomes a local
        variable; a value never read is removed (when computing it has no effect); a lazily cached value
        (`if self.cache is None: self.cache = ...`, `__init__` setting it to `None`) is computed into a
        local variable on every call, and so is a value kept while a key matches (`if n == self.cached_n
        and self.cached is not None: return self.cached`, then `self.cached_n = n` and `self.cached = ...`:
        the rotary embeddings of mindone's wav2vec2-conformer, wav2vec2-bert, seamless_m4t and clvp
        ports), whose early `return` goes with the attributes, and a cache refilled when its key grows or
        changes (`if self.max_len is None or n > self.max_len:` setting `self.max_len` and the kept values,
        read after the `if`: mindnlp's chatglm rotary embedding), whose `if` gives way to its body. A method
        that only maps the kept value when there is one (`if self.c is not None: self.c = fn(self.c)`,
        mindnlp's `_apply`) does not count as another reader. One finding covers every such attribute of
        the method, reported at the method. An input that `construct` keeps for the Cell's own `bprop`
        (`self.idx = idx`, read only there: PyTorch's `save_for_backward`, in mindnlp's reformer) is fixed
        apart: `bprop` receives the same inputs, so it reads its own parameter and the assignment goes (its
        comments stay, on the line after). Real state across calls (`self.calls = self.calls + 1`) is reported only.

    Why it breaks graph mode:
        A compiled graph can only update state that lives in Parameters. LAX syntax runs the assignment
        through the Python fallback (the Python attribute changes as in PyNative), but STRICT syntax and
        MindIR export reject it: "if need to modify a member attribute of a class with self.calls, the
        member attribute must be of the Parameter type" (measured on MindSpore 2.10,
        tests/verify_rules/host_data/gm202_*.py). A value kept for `bprop` breaks GRAPH's gradients too:
        `bprop` reads the attribute when the graph is compiled, None ("'TypeNull' object has no attribute
        'unsqueeze'", `ms.grad` in tests/test_verify_host_data.py).

    Example:
        self.probs = ops.softmax(scores, -1)
        out = ops.matmul(self.probs, v)
        # becomes
        probs = ops.softmax(scores, -1)
        out = ops.matmul(probs, v)

    Fix safety:
        Safe for a value read only later in the same call, a value never read, and a cache whose value
        depends on no input of the call: the outputs and the Parameters are those of the original (the
        attribute itself is no longer set, which only Python code outside the file could see). Unsafe for a
        cache computed from the call's inputs: the original kept the first call's value for every later
        call, the fix computes it each time (equal when the inputs' shapes do not change). Unsafe for a value
        kept while a key matches: the original returned the kept value whenever the key matched, whatever
        else of the inputs changed (the ports cast it to the input's dtype), the fix computes it each time;
        equal when it depends on the key alone (measured: STRICT and export reject the original, the fix
        passes every mode with PyNative's numbers, tests/verify_rules/host_data/gm202_keyed_cache.py).
        Unsafe for a refilled cache: the original computed the values for the largest key seen and returned
        them (sliced) for smaller ones, the fix computes them for each call's key; equal when each row depends
        on its position alone, as rotary tables do (measured on chatglm's: STRICT and export reject the
        original, the fix passes every mode with PyNative's numbers,
        tests/verify_rules/host_data/gm202_refill_cache.py and bench/realcells).
        State across calls has no fix: making it a Parameter needs its dtype and shape, and `ops.assign`
        to update it.
        Safe for an input kept for `bprop`, when neither method rebinds that input and nothing else reads
        the attribute: the outputs, and the gradients in PyNative, GRAPH and STRICT, are the original's
        PyNative ones (measured).
    """

    CODE = "GM202"
    NAME = "attribute-mutation"
    BREAKS = breaks(STRICT, EXPORT, note="LAX keeps the attribute on the host")
    EXPLAINS = (
        explains(
            r"In JIT strict mode, if need to modify a member attribute of a class with self\.\w+, the "
            r"member attribute must be of the Parameter type",
            STRICT,
            EXPORT,
        ),
        # an attribute `__init__` never sets: STRICT keeps no assignment of it, so the read fails (mindnlp's
        # reformer ReverseSort in bench/realcells/results.json, `self.sorted_bucket_idx` kept for bprop)
        explains(r"The '\w+' object has no attribute '\w+'", STRICT, EXPORT),
    )
    FIX = "safe/unsafe"

    def __init__(self, ctx) -> None:
        super().__init__(ctx)
        # the graph functions whose scratch attributes are reported: the attributes one finding fixes
        self._fixed: dict[int, set[str]] = {}
        self._hits: dict[int, _Hit | _Refill | None] = {}  # by graph function: its cache, read once

    def cache(self, function: cst.FunctionDef) -> _Hit | _Refill | None:
        """The keyed or refilled cache of `function`, one object per function (its `trim` is the method every
        attribute's fix is computed on, statement for statement)."""
        if id(function) not in self._hits:
            self._hits[id(function)] = _cache_hit(function, self._plain_value) or _refill(function, self._plain_value)
        return self._hits[id(function)]

    def _report_scratch(self) -> None:
        """One finding for every scratch attribute of the function, fixed together (one node, one fix)."""
        function = self.ctx.current.node  # type: ignore[union-attr]
        covered = self._fixed[id(function)] = set()
        taken: set[str] = set()
        found: list[_Scratch] = []
        for target in _self_targets(function):
            name = target.attr.value
            plain = self._plain_value(name)
            if plain is not None and name not in {f.attr for f in found}:
                fix = _Scratch.of(self, name, plain, taken)
                if fix is not None:
                    found.append(fix)
                    taken.add(fix.local)
        keyed = [f for f in found if f.hit is not None]
        if keyed and not keyed[0].hit.attrs <= {f.attr for f in keyed}:  # type: ignore[union-attr]
            found = [f for f in found if f.hit is None]  # a part of the cache stays: the early return must too
        safe = [f for f in found if f.applicability == "safe"]
        later = [f for f in found if f not in safe] if safe else []
        found = safe or found  # the unsafe ones, once the safe ones are fixed (the next pass finds them)
        covered |= {f.attr for f in [*found, *later]}
        if not found:
            return
        hit = next((f.hit for f in found if f.hit is not None), None)
        # a keyed cache's early return goes with it (its comments to the line after); a refilled cache's `if`
        # is replaced by its body
        base = function if hit is None else hit.trim(function)
        replacements = {id(f.statement): f.replacement for f in found if f.replacement is not None}
        body = [replacements.get(id(st), st) for st in base.body.body]
        removed = [f.statement for f in found if f.replacement is None]  # their comments go to the line after
        fixed = _without(base.with_changes(body=base.body.with_changes(body=body)), removed)
        for f in found:
            fixed = fixed.visit(_ToLocal(f.attr, f.local))
        lines = "; ".join(f"`self.{f.attr}` (line {self.ctx.positions[f.target].start.line}) {f.why}" for f in found)
        if hit is not None:
            lines += hit.why
        if later:
            lines += "; then, with unsafe fixes: " + "; ".join(f"`self.{f.attr}` {f.why}" for f in later)
        unsafe = any(f.applicability == "unsafe" for f in found)
        self.report(
            function,
            f"{self.ctx.where()} assigns attributes that are not Parameters, which STRICT syntax and MindIR "
            f'export reject ("the member attribute must be of the Parameter type"): {lines}',
            fixed,
            "unsafe" if unsafe else "safe",
        )

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
        message = (
            f"`{attr}` is assigned in {self.ctx.where()} but is not a Parameter ({was}): STRICT syntax and "
            f'MindIR export reject this ("the member attribute must be of the Parameter type")'
        )
        saved = _Saved.of(self.ctx, target)
        if saved is not None:
            self.report(
                target,
                f"{message}; it only keeps the input `{saved.given}` for the Cell's own `bprop`, which MindSpore "
                f"calls with the same inputs: the fix reads `bprop`'s `{saved.received}` and removes the assignment",
                saved.replacement,
                target=self.ctx.current.cell,  # type: ignore[union-attr]
            )
            return
        function = id(self.ctx.current.node)  # type: ignore[union-attr]
        if function not in self._fixed and _Scratch.of(self, target.attr.value, plain, set()) is not None:
            self._report_scratch()
        if target.attr.value not in self._fixed.get(function, ()):
            self.report(
                target,
                f"{message}; keep the value in a local variable, or declare `{attr}` a Parameter in `__init__` "
                "and update it with `ops.assign`",
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
            # a method that only maps the kept value (`if self.a is not None: self.a = fn(self.a)`) is no reader
            for name, values in self.values.attributes(cls, ignore=_kept_mapper(cls)).items():
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


class _Scratch:
    """A plain attribute that is only scratch space of one call, and the edit that makes it a local.

    Three forms, each found in real Cells: a value written and then read later in the same call
    (→ a local variable), a value written and never read anywhere (→ removed, when computing it has no
    effect), and a lazily cached value `if self.a is None: self.a = ...` (→ computed on every call).
    """

    def __init__(self, attr, target, statement, replacement, local, why, applicability, hit=None) -> None:
        self.attr, self.target, self.statement, self.replacement = attr, target, statement, replacement
        self.local, self.why, self.applicability = local, why, applicability
        # the keyed cache the attribute is part of (its early `return` goes too), or the refilled one (its `if` goes)
        self.hit: _Hit | _Refill | None = hit

    @classmethod
    def of(cls, rule: AttributeMutation, attr: str, plain: cst.BaseExpression, taken: set[str]) -> _Scratch | None:
        ctx = rule.ctx
        function, cell = ctx.current.node, ctx.current.cell  # type: ignore[union-attr]
        if function not in cell.body.body or _used_elsewhere(ctx.module, cell, function, attr, _is_none(plain)):  # type: ignore[union-attr]
            return None
        hit = rule.cache(function)
        if hit is not None and attr in hit.attrs:
            found = cls._of(rule, hit.trim(function), attr, plain, taken, function)
            if found is None or found.replacement is None and attr == hit.value:
                return None
            found.hit, found.applicability = hit, "unsafe"
            if found.replacement is None:
                found.why = hit.key_why
            return found
        return cls._of(rule, function, attr, plain, taken, function)

    @classmethod
    def _of(cls, rule, function, attr: str, plain, taken: set[str], tree: cst.FunctionDef) -> _Scratch | None:
        """`function` is the method as the fix sees it (without a keyed cache's early return), `tree` the
        method in the module (whose parents the context knows)."""
        ctx = rule.ctx
        uses = [n for n in find(function.body, cst.Attribute) if n.attr.value == attr and is_self_attribute(n)]
        if not uses or any(_in_nested_scope(ctx, n, tree) for n in uses):
            return None
        first = _first_write(function, uses[0])
        if first is None:
            return None
        statement, target, value, lazy = first
        if any(is_self_attribute(n) and n.attr.value == attr for n in find(value, cst.Attribute)):
            return None  # `self.a = self.a + 1`: state across calls (a Parameter and `ops.assign`, by hand)
        if lazy and not (isinstance(plain, cst.Name) and plain.value == "None"):
            return None  # `if self.a is None` must test what `__init__` set
        reads = len(uses) > (2 if lazy else 1)
        local = _local_name(ctx.module, attr, taken)
        unpacked = not (assign := single_assign(statement)) or assign.targets[0].target is not target
        if not lazy and not reads and rule.values.is_pure(value) and not unpacked:
            return cls(attr, target, statement, None, local, "is never read: the fix removes it", "safe")
        if not lazy and not reads:  # one item of `self.a, b = …` (the line stays)
            why = f"is never read: the fix unpacks it into the local variable `{local}`"
            return cls(attr, target, statement, statement, local, why, "safe")
        if not lazy:
            why = f"is read only later in the same call: the fix keeps it in the local variable `{local}`"
            return cls(attr, target, statement, statement, local, why, "safe")
        inner = statement.body.body[0].with_changes(leading_lines=statement.leading_lines)
        if _depends_on_call(function, value):
            why = (
                f"caches a value computed from this call's inputs: the fix computes it into `{local}` on every "
                "call (unsafe: the original kept the first call's value for every later call)"
            )
            return cls(attr, target, statement, inner, local, why, "unsafe")
        why = f"caches a value that depends on no input: the fix computes it into `{local}` on every call"
        return cls(attr, target, statement, inner, local, why, "safe")


class _Saved:
    """`self.a = x` in `construct`, where `x` is an input and `a` is read only by the Cell's `bprop`: a value
    kept for the backward pass, as PyTorch's `ctx.save_for_backward` (mindnlp's reformer `ReverseSort`).

    MindSpore calls `bprop(self, *inputs, out, dout)` with the inputs `construct` got, so `bprop` has `x`
    as its own parameter at the same place: the fix removes the assignment and reads that parameter.
    Measured (bench/realcells, ReverseSort; tests/verify_rules/host_data/gm202_saved_for_bprop.py): STRICT
    and export reject the assignment; in GRAPH, `ms.grad` of the original fails ('TypeNull' object has no
    attribute …: `bprop` reads the attribute's value at compile time, None); the fix's outputs and
    gradients equal PyNative's in every mode.
    """

    def __init__(self, given: str, received: str, replacement: cst.ClassDef) -> None:
        self.given, self.received, self.replacement = given, received, replacement

    @classmethod
    def of(cls, ctx, target: cst.Attribute) -> _Saved | None:
        function, cell = ctx.current.node, ctx.current.cell
        attr = target.attr.value
        if function.name.value != "construct" or function not in cell.body.body:
            return None
        bprop = next((m for m in cell.body.body if isinstance(m, cst.FunctionDef) and m.name.value == "bprop"), None)
        if bprop is None or not _plain_params(function) or not _plain_params(bprop):
            return None
        inputs = [p.name.value for p in function.params.params[1:]]
        received = [p.name.value for p in bprop.params.params[1:]]
        if len(received) != len(inputs) + 2:  # (…inputs, out, dout)
            return None
        init = [m for m in cell.body.body if isinstance(m, cst.FunctionDef) and m.name.value == "__init__"]
        scopes = (function, bprop, *init)
        inside = {id(n) for scope in scopes for n in find(scope, cst.Attribute)}
        if any(n.attr.value == attr and id(n) not in inside for n in find(ctx.module, cst.Attribute)):
            return None  # another method, class or caller uses it
        statement = next((st for st in function.body.body if _assigns(st, target)), None)
        if statement is None or not isinstance(value := single_assign(statement).value, cst.Name):  # type: ignore[union-attr]
            return None
        given = value.value
        if given not in inputs or given in _bound(function) or not _only_read(function, attr, target):
            return None
        mine = received[inputs.index(given)]
        kept = [st for st in bprop.body.body if _copies(st, mine, attr)]
        if (mine in _bound(bprop, ignore=kept)) or not _only_read(bprop, attr, None):
            return None
        if any(_in_nested_scope(ctx, n, s) for s in (function, bprop) for n in _uses(s, attr)):
            return None
        forward = _without(function, [statement]).visit(_ToLocal(attr, given))
        backward = _without(bprop, kept).visit(_ToLocal(attr, mine))
        if not forward.body.body or not backward.body.body:
            return None
        body = [forward if m is function else backward if m is bprop else m for m in cell.body.body]
        return cls(given, mine, cell.with_changes(body=cell.body.with_changes(body=body)))


def _plain_params(function: cst.FunctionDef) -> bool:
    """Only positional parameters, the first `self`."""
    params = function.params
    return (
        bool(params.params)
        and params.params[0].name.value == "self"
        and not (params.posonly_params or params.kwonly_params)
        and not isinstance(params.star_arg, cst.Param)
        and params.star_kwarg is None
    )


def _assigns(statement: cst.BaseStatement, target: cst.Attribute) -> bool:
    assign = single_assign(statement)
    return assign is not None and assign.targets[0].target is target


def _copies(statement: cst.BaseStatement, name: str, attr: str) -> bool:
    """`name = self.attr`, a top-level line of `bprop`."""
    assign = single_assign(statement)
    return (
        assign is not None
        and isinstance(assign.targets[0].target, cst.Name)
        and assign.targets[0].target.value == name
        and is_self_attribute(assign.value)
        and assign.value.attr.value == attr  # type: ignore[attr-defined]
    )


def _uses(function: cst.FunctionDef, attr: str) -> list[cst.Attribute]:
    return [n for n in find(function.body, cst.Attribute) if n.attr.value == attr and is_self_attribute(n)]


def _only_read(function: cst.FunctionDef, attr: str, allowed: cst.Attribute | None) -> bool:
    """Every `self.attr` of `function` is read, but `allowed` (the one assignment the fix removes)."""
    written = {id(t) for t in _self_targets(function)} | {
        id(n.target) for n in find(function.body, cst.Del) if is_self_attribute(n.target)
    }
    return all(id(n) not in written or n is allowed for n in _uses(function, attr))


def _bound(function: cst.FunctionDef, ignore: list[cst.BaseStatement] = ()) -> set[str]:  # type: ignore[assignment]
    """The names `function`'s body binds, but in the statements of `ignore`."""
    skipped = {id(n) for st in ignore for n in find(st, cst.AssignTarget)}
    names: set[str] = set()
    for node in find(function.body, cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.For, cst.NamedExpr,
                     cst.WithItem, cst.CompFor, cst.ExceptHandler, cst.Del):  # fmt: skip
        if id(node) in skipped:
            continue
        bound = getattr(node, "target", None) or getattr(node, "asname", None) or getattr(node, "name", None)
        if bound is not None:
            names |= target_names(bound)
    return names


def _without(function: cst.FunctionDef, removed: list[cst.BaseStatement]) -> cst.FunctionDef:
    """`function` without the top-level statements `removed`; their comments go to the statement after."""
    body, carried = [], []
    for statement in function.body.body:
        if any(statement is r for r in removed):
            carried += [line for line in statement.leading_lines if line.comment is not None]
            continue
        if carried:
            statement = statement.with_changes(leading_lines=[*carried, *statement.leading_lines])
            carried = []
        body.append(statement)
    return function.with_changes(body=function.body.with_changes(body=body))


def _self_targets(function: cst.FunctionDef) -> list[cst.Attribute]:
    """`self.a` assigned in `function`, also as an item of an unpacking (`self.a, self.b = a, b`)."""
    found = []
    for node in find(function.body, cst.AssignTarget, cst.AugAssign, cst.AnnAssign):
        targets = [e.value for e in node.target.elements] if isinstance(node.target, cst.Tuple) else [node.target]
        found += [t for t in targets if is_self_attribute(t)]
    return found


def _used_elsewhere(
    module: cst.Module, cell: cst.ClassDef, function: cst.FunctionDef, attr: str, none: bool = False
) -> bool:
    """`.attr` anywhere in the file but in `function` and `__init__` of `cell` (other methods, subclasses,
    code that reads `net.attr`). When `__init__` sets it to None (`none`), a method of the Cell that only maps
    the value when there is one does not count: `if self.a is not None: self.a = fn(self.a)` (mindnlp's
    `_apply`, which casts the kept tables), as the fix leaves the attribute None."""
    init = [f for f in cell.body.body if isinstance(f, cst.FunctionDef) and f.name.value == "__init__"]
    scopes = (function, *init, *_overrides(module, cell, function))
    if none:
        scopes += tuple(m for m in cell.body.body if isinstance(m, cst.FunctionDef) and _maps_kept(m, attr))
    inside = {id(n) for scope in scopes for n in find(scope, cst.Attribute) if n.attr.value == attr}
    return any(id(n) not in inside for n in find(module, cst.Attribute) if n.attr.value == attr)


def _kept_mapper(cls: cst.ClassDef) -> Callable[[str, str], bool]:
    """(method name, attribute) → whether that method of `cls` only maps the attribute's kept value."""
    methods = {m.name.value: m for m in cls.body.body if isinstance(m, cst.FunctionDef)}
    return lambda method, attr: method in methods and _maps_kept(methods[method], attr)


def _maps_kept(method: cst.FunctionDef, attr: str) -> bool:
    """Every `self.attr` of `method` is in a top-level `if self.attr is not None: self.attr = <value>`."""
    guarded: set[int] = set()
    for statement in method.body.body:
        if not isinstance(statement, cst.If) or statement.orelse is not None:
            continue
        test = statement.test
        if not (_is_none_test(test, cst.IsNot) and is_self_attribute(test.left) and test.left.attr.value == attr):  # type: ignore[attr-defined]
            continue
        body = statement.body.body if isinstance(statement.body, cst.IndentedBlock) else ()
        assigns = [single_assign(st) for st in body]
        if body and all(
            a is not None and is_self_attribute(a.targets[0].target) and a.targets[0].target.attr.value == attr  # type: ignore[attr-defined]
            for a in assigns
        ):
            guarded |= {id(n) for n in find(statement, cst.Attribute)}
    uses = [n for n in find(method, cst.Attribute) if n.attr.value == attr]
    return bool(uses) and all(id(n) in guarded for n in uses)


def _overrides(module: cst.Module, cell: cst.ClassDef, function: cst.FunctionDef) -> list[cst.FunctionDef]:
    """The same method of a direct base, subclass or sibling class in the file, when neither calls `super()`
    (only one of them runs on an instance, so its use of the attribute is its own: Phi3's scaled rotary
    embeddings replace `construct` and set `self.inv_freq` before reading it), and the bases' `__init__`."""
    if _calls_super(function):
        return []
    mine = _bases(cell)
    found = []
    for other in find(module, cst.ClassDef):
        if other is cell:
            continue
        theirs = _bases(other)
        base, related = other.name.value in mine, cell.name.value in theirs or bool(mine & theirs)
        for method in other.body.body if base or related else ():
            if not isinstance(method, cst.FunctionDef):
                continue
            if method.name.value == function.name.value and not _calls_super(method):
                found.append(method)
            elif method.name.value == "__init__" and base:
                found.append(method)
    return found


def _bases(cls: cst.ClassDef) -> set[str]:
    return {b.value.value for b in cls.bases if isinstance(b.value, cst.Name)}


def _calls_super(function: cst.FunctionDef) -> bool:
    return any(n.value == "super" for n in find(function.body, cst.Name))


def _in_nested_scope(ctx, node: cst.CSTNode, function: cst.FunctionDef) -> bool:
    parent = ctx.parents.get(node)
    while parent is not None and parent is not function:
        if isinstance(parent, cst.FunctionDef | cst.Lambda | cst.ClassDef):
            return True
        parent = ctx.parents.get(parent)
    return False


def _first_write(function: cst.FunctionDef, first: cst.Attribute):
    """(statement, value, lazy) when the first use of the attribute writes it in a top-level statement of
    `function`: `self.a = value`, or `if self.a is None: self.a = value`; None otherwise."""
    for statement in function.body.body:
        assign = single_assign(statement)
        if assign is not None:
            target = assign.targets[0].target
            if target is first or isinstance(target, cst.Tuple) and any(e.value is first for e in target.elements):
                return statement, first, assign.value, False
        if (
            isinstance(statement, cst.If)
            and statement.orelse is None
            and _is_none_test(statement.test)
            and statement.test.left is first  # type: ignore[attr-defined]
            and isinstance(statement.body, cst.IndentedBlock)
            and len(statement.body.body) == 1
            and (assign := single_assign(statement.body.body[0])) is not None
        ):
            target = assign.targets[0].target
            if is_self_attribute(target) and target.attr.value == first.attr.value:
                return statement, target, assign.value, True
    return None


class _Hit:
    """`if key == self.k and self.c is not None: return self.c`, a top-level statement of the function: a cache
    of `self.c`, kept while `self.k` equals `key` (the rotary embeddings of mindone's wav2vec2-conformer,
    wav2vec2-bert, seamless_m4t and clvp ports)."""

    def __init__(self, statement: cst.If, key: str, attrs: set[str], value: str) -> None:
        self.statement, self.key, self.attrs, self.value = statement, key, attrs, value
        self._trimmed: cst.FunctionDef | None = None

    key_why = "is read only by the cache's early `return`: the fix removes it"

    def trim(self, function: cst.FunctionDef) -> cst.FunctionDef:
        """The method as the fix sees it: without the early return (its comments go to the line after)."""
        if self._trimmed is None:
            self._trimmed = _without(function, [self.statement])
        return self._trimmed

    @property
    def why(self) -> str:
        return (
            f"; and the early `return self.{self.value}` when `{self.key}` matches goes: the value is computed on "
            f"every call (unsafe: the original returned the value it kept while `{self.key}` stayed the same, "
            "whatever else of the inputs changed, a dtype for one; equal when the value depends on the key alone)"
        )


class _Refill:
    """`if self.k is None or n > self.k:` (or `n != self.k`), a top-level statement of the function whose body
    sets `self.k` and the kept values, read after it: a cache refilled when the key grows or changes (mindnlp's
    chatglm `RotaryEmbedding`, which keeps the tables of the longest sequence and returns their first rows)."""

    value = None  # no early return
    key_why = "is the cache's key, read only by its `if`: the fix removes it"

    def __init__(self, statement: cst.If, key: str, attrs: set[str], test: str) -> None:
        self.statement, self.key, self.attrs, self.test = statement, key, attrs, test
        self._trimmed: cst.FunctionDef | None = None

    def trim(self, function: cst.FunctionDef) -> cst.FunctionDef:
        """The method as the fix sees it: the `if`'s body in its place, run on every call."""
        if self._trimmed is not None:
            return self._trimmed
        body: list[cst.BaseStatement] = []
        for statement in function.body.body:
            if statement is not self.statement:
                body.append(statement)
                continue
            inner = list(self.statement.body.body)  # type: ignore[union-attr]
            inner[0] = inner[0].with_changes(leading_lines=[*statement.leading_lines, *inner[0].leading_lines])
            body += inner
        self._trimmed = function.with_changes(body=function.body.with_changes(body=body))
        return self._trimmed

    @property
    def why(self) -> str:
        return (
            f"; and `if {self.test}:` goes: its body runs on every call (unsafe: the original computed the values "
            f"only when `{self.key}` grew or changed and otherwise returned those of an earlier call; equal when "
            "they depend on the key alone, as tables sliced to the length do)"
        )


def _refill(function: cst.FunctionDef, plain) -> _Refill | None:
    """The first top-level `if` of `function` that tests a plain attribute against a value of the call and
    sets that attribute and others in its body: a cache refilled when the key grows or changes."""
    for statement in function.body.body:
        if not isinstance(statement, cst.If) or statement.orelse is not None:
            continue
        if not isinstance(statement.body, cst.IndentedBlock):
            continue
        keys: set[str] = set()
        compared = False
        for part in _operands(statement.test, cst.Or):
            if not isinstance(part, cst.Comparison) or len(part.comparisons) != 1:
                break
            (comparison,) = part.comparisons
            left, right = part.left, comparison.comparator
            if isinstance(comparison.operator, cst.Is) and _is_none(right) and is_self_attribute(left):
                keys.add(left.attr.value)  # type: ignore[attr-defined]
            elif isinstance(comparison.operator, (cst.GreaterThan, cst.LessThan, cst.NotEqual)) and is_self_attribute(
                right
            ) != is_self_attribute(left):
                mine, other = (right, left) if is_self_attribute(right) else (left, right)
                if any(is_self_attribute(n) for n in find(other, cst.Attribute)):
                    break
                keys.add(mine.attr.value)  # type: ignore[attr-defined]
                compared = True
            else:
                break
        else:
            if len(keys) != 1 or not compared:
                continue
            (key,) = keys
            written = set()
            for inner in statement.body.body:
                assign = single_assign(inner)
                if assign is None:
                    continue
                target = assign.targets[0].target
                elements = [e.value for e in target.elements] if isinstance(target, cst.Tuple) else [target]
                written |= {e.attr.value for e in elements if is_self_attribute(e)}  # type: ignore[attr-defined]
            attrs = written | {key}
            if key in written and len(attrs) > 1 and all(plain(a) is not None for a in attrs):
                return _Refill(statement, f"self.{key}", attrs, cst.Module([]).code_for_node(statement.test))
    return None


def _cache_hit(function: cst.FunctionDef, plain) -> _Hit | None:
    for statement in function.body.body:
        if not isinstance(statement, cst.If) or statement.orelse is not None:
            continue
        body = statement.body.body if isinstance(statement.body, cst.IndentedBlock) else ()
        line = body[0] if len(body) == 1 else None
        returned = line.body[0] if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 else None
        if not isinstance(returned, cst.Return) or not is_self_attribute(returned.value):
            continue
        value = returned.value.attr.value  # type: ignore[union-attr]
        keys, guarded = [], False
        for part in _operands(statement.test, cst.And):
            if not isinstance(part, cst.Comparison) or len(part.comparisons) != 1:
                break
            (comparison,) = part.comparisons
            left, right = part.left, comparison.comparator
            if isinstance(comparison.operator, cst.IsNot) and _is_none(right) and is_self_attribute(left):
                guarded = guarded or left.attr.value == value  # type: ignore[union-attr]
            elif isinstance(comparison.operator, cst.Equal) and is_self_attribute(right) != is_self_attribute(left):
                mine, other = (right, left) if is_self_attribute(right) else (left, right)
                if any(is_self_attribute(n) for n in find(other, cst.Attribute)):
                    break
                keys.append((mine.attr.value, other))  # type: ignore[union-attr]
            else:
                break
        else:
            attrs = {k for k, _ in keys} | {value}
            if guarded and keys and all(plain(a) is not None for a in attrs):
                key = cst.Module([]).code_for_node(keys[0][1])
                return _Hit(statement, key, attrs, value)
        return None  # only the first `if` that returns an attribute is looked at
    return None


def _operands(test: cst.BaseExpression, operator: type[cst.And] | type[cst.Or]) -> list[cst.BaseExpression]:
    """The operands of `a and b and c` (with `cst.And`) or `a or b` (`cst.Or`), last first; `test` alone."""
    parts = []
    while isinstance(test, cst.BooleanOperation) and isinstance(test.operator, operator):
        parts.append(test.right)
        test = test.left
    return [*parts, test]


def _is_none(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Name) and node.value == "None"


def _is_none_test(test: cst.BaseExpression, operator: type[cst.Is] | type[cst.IsNot] = cst.Is) -> bool:
    """`<expression> is None` (`<expression> is not None` with `cst.IsNot`)."""
    if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
        return False
    (comparison,) = test.comparisons
    return isinstance(comparison.operator, operator) and _is_none(comparison.comparator)


def _local_name(module: cst.Module, attr: str, taken: set[str]) -> str:
    """`attr`, or `attr_2`, `attr_3`…: the first no name of the file (an attribute name aside) uses."""
    attrs = {id(n.attr) for n in find(module, cst.Attribute)}
    used = taken | {n.value for n in find(module, cst.Name) if id(n) not in attrs}
    return fresh_name(attr, used)


def _depends_on_call(function: cst.FunctionDef, value: cst.BaseExpression) -> bool:
    """`value` names a parameter or a local variable of `function` (it changes from call to call)."""
    names = {p.name.value for p in function.params.params} | {p.name.value for p in function.params.kwonly_params}
    for node in find(function.body, cst.AssignTarget, cst.AugAssign, cst.For):
        names |= {n.value for n in find(node.target, cst.Name)}
    names.discard("self")
    return any(n.value in names for n in find(value, cst.Name))


class _ToLocal(cst.CSTTransformer):
    """`self.<attr>` → `<local>` everywhere in a function."""

    def __init__(self, attr: str, local: str) -> None:
        super().__init__()
        self.attr, self.local = attr, local

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        if is_self_attribute(original) and original.attr.value == self.attr:
            return cst.Name(self.local, lpar=original.lpar, rpar=original.rpar)
        return updated


_UNSET = cst.Name("None")  # marker: the attribute is not set outside graph code
