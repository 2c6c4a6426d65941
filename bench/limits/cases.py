"""§1 of MindSpore's documented static-graph limits, as tiny Cells to measure on the installed MindSpore.

Data only: no MindSpore, no graphmend. `bench/limits/run.py` writes each case into a module (HEADER +
source) and runs it in a child process (child.py) in PyNative, GRAPH (LAX), STRICT, a dynamic batch
and a STRICT MindIR export loaded back. A case module defines `Net`; optionally `inputs(b)` (numpy
arrays, batch `b` first; default one float32 [b, 4]), `variant()` (a second call with other non-tensor
values) and `run(net, *inputs)` (the call sequence; default two calls).

Each Row says which graphmend rules cover it (`rules`), or why there is none (`why`); the README table
and docs/limits.md are generated from these rows and the measured results (docs/limits.json).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from textwrap import dedent

HEADER = """\
import math

import numpy as np

import mindspore as ms
from mindspore import Parameter, Tensor, mint, nn, ops
"""


@dataclass(frozen=True)
class Case:
    name: str  # a Python identifier, unique
    source: str
    no_file: bool = False  # defined from a string, as typed in a REPL


@dataclass(frozen=True)
class Row:
    number: int
    construct: str
    cases: tuple[Case, ...]
    rules: tuple[str, ...] = ()  # the graphmend rules that cover the row (or some of its cases)
    why: str = ""  # what no rule covers, and why (no mechanical rewrite, not a code pattern, ...)
    reported: tuple[str, ...] = ()  # rules that only report this row's constructs (their fixes are for others)
    notes: tuple[str, ...] = field(default=())


def _c(name: str, source: str, **kw) -> Case:
    return Case(name, dedent(source).strip() + "\n", **kw)


def _net(body: str, init: str = "", extra: str = "") -> str:
    """A Cell whose construct(self, x) is `body` (and __init__ body `init`)."""
    init_src = "    def __init__(self):\n        super().__init__()\n" + _indent(init or "pass", 8) + "\n\n"
    return (dedent(extra).strip() + "\n\n\n" if extra else "") + (
        "class Net(nn.Cell):\n" + init_src + "    def construct(self, x):\n" + _indent(body, 8) + "\n"
    )


def _indent(text: str, n: int) -> str:
    return "\n".join((" " * n + line) if line.strip() else "" for line in dedent(text).strip().splitlines())


def _n(name: str, body: str, init: str = "", extra: str = "", **kw) -> Case:
    return Case(name, _net(body, init, extra), **kw)


DENSE = "self.dense = nn.Dense(4, 4)"

ROWS: tuple[Row, ...] = (
    Row(
        1,
        "`try`/`except`",
        (
            _n(
                "try_except",
                """
            try:
                y = x * 2
            except ValueError:
                y = x
            return y""",
            ),
        ),
        rules=("GM606",),
        reported=("GM606",),
    ),
    Row(
        2,
        "`del`, annotated assignment, `match`, `import` in the graph, `nonlocal`, walrus, set literal and set comprehension",
        (
            _n("del_local", "t = x + 1\ny = t * 2\ndel t\nreturn y"),
            _n("annotated_assign", "y: Tensor = x * 2\nreturn y"),
            _n(
                "match_statement",
                """
            match self.k:
                case 1:
                    y = x * 2
                case _:
                    y = x
            return y""",
                init="self.k = 1",
            ),
            _n("import_in_construct", "import math as m\nreturn x * m.pi"),
            _n(
                "nonlocal_closure",
                """
            total = x

            def add():
                nonlocal total
                total = total + 1

            add()
            return total""",
            ),
            _n("walrus", "if (n := x.shape[1]) > 1:\n    return x * n\nreturn x"),
            _n("set_literal", "s = {1, 2}\nreturn x * len(s)"),
            _n("set_comprehension", "s = {i for i in range(3)}\nreturn x * len(s)"),
        ),
        rules=("GM604", "GM603", "GM606"),
        why="the annotated assignment ran everywhere; `match`, `import` and `nonlocal` are reported (GM606), not "
        "rewritten; set displays and comprehensions become `set(...)` (GM606's fix)",
    ),
    Row(
        3,
        "`yield` (generators); `self.trainable_params()` / `parameters_dict()` / `get_parameters()` in construct",
        (
            _n(
                "generator_function",
                "total = 0\nfor v in gen(3):\n    total = total + v\nreturn x * total",
                extra="def gen(n):\n    for i in range(n):\n        yield i",
            ),
            _n("trainable_params", "n = len(self.trainable_params())\nreturn self.dense(x) * n", init=DENSE),
            _n("parameters_dict", "n = len(self.parameters_dict())\nreturn self.dense(x) * n", init=DENSE),
            _n(
                "get_parameters",
                "y = self.dense(x)\nfor p in self.get_parameters():\n    y = y + p.sum()\nreturn y",
                init=DENSE,
            ),
        ),
        rules=("GM606", "GM607"),
        reported=("GM606",),
    ),
    Row(
        4,
        "Nested comprehensions (two `for` clauses)",
        (
            _n("nested_listcomp", "vals = [i * j for i in range(2) for j in range(3)]\nreturn x * sum(vals)"),
            _n("nested_dictcomp", "d = {i * 3 + j: j for i in range(2) for j in range(3)}\nreturn x * d[4]"),
            _n("nested_genexp", "return x * sum(i * j for i in range(2) for j in range(3))"),
            _n("single_listcomp", "vals = [i * 2 for i in range(3)]\nreturn x * sum(vals)"),
        ),
        rules=("GM605",),
        why="the single-clause comprehension ran everywhere",
    ),
    Row(
        5,
        "`for … else`, `while … else`",
        (
            _n("for_else", "for i in range(3):\n    if i == 5:\n        break\nelse:\n    x = x + 1\nreturn x"),
            _n("while_else", "i = 0\nwhile i < 3:\n    i += 1\nelse:\n    x = x + 1\nreturn x"),
        ),
        rules=("GM602",),
    ),
    Row(
        6,
        "`complex` numbers and the `set` type",
        (
            _n("complex_number", "c = complex(1, 2)\nreturn x * c.imag"),
            _n("set_builtin", "s = set([1, 2, 2])\nreturn x * len(s)"),
        ),
    ),
    Row(
        7,
        "Builtins the docs list as unsupported (`sorted`, `reversed`, `divmod`, `ord`, `iter`/`next`, `callable`, `slice`, `repr`, …)",
        (
            _n("builtin_sorted", "v = sorted([3, 1, 2])\nreturn x * v[0]"),
            _n("builtin_reversed", "v = list(reversed([3, 1, 2]))\nreturn x * v[0]"),
            _n("builtin_divmod", "q, r = divmod(7, 2)\nreturn x * q + r"),
            _n("builtin_ord", "return x * ord('a')"),
            _n("builtin_iter_next", "it = iter([2, 3])\nreturn x * next(it)"),
            _n("builtin_callable", "return x * 2 if callable(self.f) else x", init="self.f = ops.relu"),
            _n("builtin_slice", "s = slice(0, 1)\nreturn x[s]"),
            _n("builtin_repr", "return x, repr(3)"),
        ),
        why="only `iter`/`next` failed (an internal 'Stack' error); no rule of its own: bench/limits/prevalence.py over the 8,018 construct methods of the seven real-Cell wheels finds them in 8, each over a parameter walker that GM607 reports (`next(self.parameters())` 4, `get_parameters()` 2, `parameters_dict()` 2)",
    ),
    Row(
        8,
        "Third-party libraries (`math`, numpy, …) in construct",
        (
            _n("math_in_construct", "return x * math.sqrt(2.0)"),
            _n("numpy_constant", "return x + Tensor(np.ones((4,), np.float32))"),
        ),
    ),
    Row(
        9,
        "A JIT-Fallback value returned out of the graph",
        (
            _n("fallback_return", "return x, np.add(1, 2)"),
            _n("fallback_array_return", "return np.array([1.0, 2.0])"),
        ),
        why="a numpy scalar comes back as a Python int (the value is the same); no rule: GM101–GM106 cover numpy on tensors",
    ),
    Row(
        10,
        "A Cell attribute changed outside the graph after the first call",
        (
            _n(
                "attribute_changed_after_call",
                "return x * self.k",
                init="self.k = 2",
                extra="""
            def run(net, x):
                first = net(x)
                net.k = 3
                return first, net(x)""",
            ),
            _c(
                "attribute_set_by_method",
                """
            def run(net, x):
                first = net(x)
                net.set_k(3)
                return first, net(x)


            class Net(nn.Cell):
                def __init__(self):
                    super().__init__()
                    self.k = 2

                def set_k(self, k):
                    self.k = k

                def construct(self, x):
                    return x * self.k""",
            ),
            _c(
                "flag_set_by_method",
                """
            def run(net, x):
                first = net(x)
                net.enable_bias()
                return first, net(x)


            class Net(nn.Cell):
                def __init__(self):
                    super().__init__()
                    self.use_bias = False

                def enable_bias(self):
                    self.use_bias = True

                def construct(self, x):
                    if self.use_bias:
                        return x + 100
                    return x""",
            ),
        ),
        rules=("GM611",),
        why="GM611 reports a setter of the Cell's own (off by default: most run before the first call); an "
        "assignment in a training script (`net.k = 3`) is outside the Cell, which graphmend does not follow",
    ),
    Row(
        11,
        "Assigning a non-Parameter `self.x` in construct",
        (_n("assign_plain_attribute", "self.count = self.count + 1\nreturn x * self.count", init="self.count = 0"),),
        rules=("GM202",),
    ),
    Row(
        12,
        "Reading an undefined member `self.y`",
        (_n("undefined_member", "return x + self.missing"),),
        why="not a graph-mode limit: PyNative fails too",
    ),
    Row(
        13,
        "A `@classmethod` of the Cell called from construct",
        (
            Case(
                "classmethod_call",
                dedent("""
            class Net(nn.Cell):
                @classmethod
                def scale(cls, x):
                    return x * 2

                def construct(self, x):
                    return self.scale(x)
            """).lstrip(),
            ),
        ),
        rules=("GM610",),
        why="a `@staticmethod` ran everywhere; where the body reads `cls`, naming the class is unsafe for subclasses",
    ),
    Row(
        14,
        "In-place list methods (`append`, `x[i] = …`, `extend`, `pop`, `insert`, `reverse`, `clear`) seen through an alias",
        tuple(
            _n(f"list_{name}", f"a = [x, x * 2]\nb = a\n{stmt}\nreturn len(a), a[0]")
            for name, stmt in (
                ("append", "b.append(x * 3)"),
                ("setitem", "b[0] = x * 5"),
                ("extend", "b.extend([x * 3])"),
                ("pop", "b.pop()"),
                ("insert", "b.insert(0, x * 3)"),
                ("reverse", "b.reverse()"),
                ("clear", "b.clear()\nb.append(x)"),
            )
        )
        + (
            Case(
                "list_helper_append",
                dedent("""
                    class Net(nn.Cell):
                        def construct(self, x):
                            outs = [x]
                            self.add(outs, x)
                            return len(outs), outs[0]

                        def add(self, outs, x):
                            outs.append(x * 2)
                    """).lstrip(),
            ),
        ),
        rules=("GM601",),
    ),
    Row(
        15,
        "A global list returned from the graph",
        (
            _n(
                "global_list_returned",
                "return x, GLOBAL",
                extra="""
            GLOBAL = [1, 2]


            def run(net, x):
                first = net(x)
                return first[0], first[1] is GLOBAL""",
            ),
        ),
        why="STRICT returns a copy of a global list (same items, another object); no rule: identity of a returned list is rarely used",
    ),
    Row(
        16,
        "Dicts: returned from the top graph, `dict.get`, non-constant keys",
        (
            _n("dict_returned", "return {'a': x, 'b': x * 2}"),
            _n("dict_get", "d = {'a': x}\nreturn d.get('a') * 2"),
            _n("dict_tensor_key", "d = {x.shape[0]: x}\nreturn d[x.shape[0]] * 2"),
        ),
        why="only a dict keyed by a shape value failed, with a dynamic batch; no rule: bench/limits/prevalence.py over the 8,018 construct methods of the seven real-Cell wheels find none",
    ),
    Row(
        17,
        "`raise` with a dict value",
        (_n("raise_dict", "if x.shape[1] > 10:\n    raise ValueError({'a': 1})\nreturn x * 2"),),
    ),
    Row(
        18,
        "`is` / `is not` with something other than None/True/False",
        (
            _n("is_string", "return x * 2 if self.mode is 'a' else x", init="self.mode = 'a'"),
            _n("is_tensor", "y = x\nreturn x * 2 if y is x else x"),
        ),
        rules=("GM608",),
        why="`is` on a string ran everywhere",
    ),
    Row(
        19,
        "`in` / `not in` beyond numbers and strings in tuples/lists",
        (
            _n("scalar_in_tensor", "return x * 2 if 2.0 in x else x"),
            _n("tensor_in_tuple", "s = x.sum()\nreturn x * 3 if s in (s * 2, s) else x"),
            _n("string_in_dict", "d = {'a': 1}\nreturn x * 2 if 'a' in d else x"),
        ),
        rules=("GM609",),
        why="only `v in tensor` failed (STRICT, export); `in` on a tuple or a dict ran everywhere",
    ),
    Row(
        20,
        "Chained comparisons",
        (
            _n("chained_compare_constant", "return x * 2 if 1 < self.k < 3 else x", init="self.k = 2"),
            _n("chained_compare_tensor", "if -100 < x.sum() < 100:\n    return x * 2\nreturn x"),
        ),
    ),
    Row(
        21,
        "`and`/`or` with tensors",
        (
            _n("and_multi_element", "return (x > 0) and (x < 1)"),
            _n("and_single_element", "s = x.sum()\nreturn (s > 0) and (s < 100)"),
        ),
        why="not a graph-mode limit: `and` on a multi-element tensor fails in PyNative too",
    ),
    Row(
        22,
        "Number ops mixing float64 and int32",
        (_n("float64_plus_int32", "a = ops.ones((4,), ms.float64)\nb = ops.ones((4,), ms.int32)\nreturn x + (a + b)"),),
    ),
    Row(
        23, "`/` on two ints", (_n("int_true_divide", "return x * 1, self.a / self.b", init="self.a = 8\nself.b = 2"),)
    ),
    Row(
        24,
        "Branches of a tensor condition with different dtypes or shapes",
        (
            _n("branch_dtype_join", "if x.sum() > 0:\n    y = x.astype(ms.float16)\nelse:\n    y = x\nreturn y"),
            _n("branch_shape_join", "if x.sum() > 0:\n    y = x[:, :2]\nelse:\n    y = x\nreturn y"),
        ),
        rules=("GM401",),
        why="GM401 reports the tensor `if`; the dtype mismatch of its branches is not detected",
    ),
    Row(
        25,
        "A variable bound in one branch only; a loop-body variable used after the loop",
        (
            _n("branch_var_constant_flag", "if self.flag:\n    y = x * 2\nreturn y", init="self.flag = True"),
            _n("branch_var_tensor_condition", "if x.sum() > 0:\n    y = x * 2\nreturn y"),
            _n("loop_var_after_while", "i = x.sum() * 0\nwhile i < 10:\n    z = x * i\n    i = i + 1\nreturn z"),
            _n("branch_var_shape_condition", "if x.shape[0] > 1:\n    y = x * 2\nreturn y"),
            _n("loop_var_after_for", "for i in range(3):\n    z = x * i\nreturn z"),
            _n(
                "branch_var_guarded_read",
                "flag = x.ndim == 3\nif flag:\n    w = x * 2\nif flag:\n    return x + w\nreturn x",
            ),
            _n(
                "branch_var_complementary_ifs",
                "if x.shape[0] > 1:\n    y = x * 2\nif x.shape[0] <= 1:\n    y = x\nreturn y + 1",
            ),
        ),
        rules=("GM612",),
        why="GM612 binds the name to `None` before the `if` or the loop (safe), which every configuration accepts "
        "unless the condition is a tensor: then STRICT cannot join `None` with a tensor, and GM612 reports it",
    ),
    Row(
        26,
        "Tensor default argument values",
        (
            Case(
                "tensor_default_argument",
                dedent("""
            class Net(nn.Cell):
                def construct(self, x, s=Tensor(2.0)):
                    return x * s
            """).lstrip(),
            ),
        ),
    ),
    Row(
        27,
        "`**kwargs` / `*args` on the top-level construct",
        (
            Case(
                "construct_kwargs",
                dedent("""
            class Net(nn.Cell):
                def construct(self, x, **kwargs):
                    return x * 2
            """).lstrip(),
            ),
            Case(
                "construct_varargs",
                dedent("""
            class Net(nn.Cell):
                def construct(self, *args):
                    return args[0] * 2
            """).lstrip(),
            ),
        ),
    ),
    Row(
        28,
        "A Primitive built in construct with keyword arguments",
        (_n("primitive_keyword_in_construct", "return ops.ReduceSum(keep_dims=True)(x, 1)"),),
    ),
    Row(
        29,
        "Primitive or Cell APIs called in construct",
        (
            _n(
                "primitive_add_prim_attr",
                "self.op.add_prim_attr('marker', 1)\nreturn self.op(x, 1)",
                init="self.op = ops.ReduceSum()",
            ),
            _n("cell_set_train", "self.dense.set_train(False)\nreturn self.dense(x)", init=DENSE),
        ),
        why="no rule: Primitive and Cell API calls (`add_prim_attr`, `set_train`) belong in `__init__`, and bench/limits/prevalence.py over the 8,018 construct methods of the seven real-Cell wheels find none",
    ),
    Row(
        30,
        "A plain (non-Cell) class instance used in construct",
        (
            _n(
                "plain_class_method",
                "return self.helper.scale(x)",
                init="self.helper = Helper()",
                extra="""
            class Helper:
                def __init__(self):
                    self.k = 3

                def scale(self, x):
                    return x * self.k""",
            ),
        ),
    ),
    Row(
        31,
        "`getattr` on a numpy object",
        (_n("getattr_numpy", "return x * getattr(self.a, 'size')", init="self.a = np.array([1.0, 2.0])"),),
    ),
    Row(
        32,
        "Indexing a CellList with a tensor",
        (
            _n(
                "celllist_tensor_index",
                "i = (x.sum() > 0).astype(ms.int32)\nreturn self.layers[i](x)",
                init="self.layers = nn.CellList([nn.ReLU(), nn.Tanh()])",
            ),
        ),
        why="a graph-only feature: PyNative rejects a tensor index into a CellList, every graph mode runs it",
    ),
    Row(
        33,
        "Duplicate Parameter names",
        (
            _n(
                "duplicate_parameter_names",
                "return x * self.a + self.b",
                init="self.a = Parameter(Tensor(1.0), name='w')\nself.b = Parameter(Tensor(2.0), name='w')",
            ),
        ),
        rules=("GM614",),
        why="export only; GM614 renames the second Parameter after its attribute (unsafe: checkpoint keys); "
        "bench/limits/prevalence.py over the six-package corpus finds one such Cell, mindone's RecurrentGemma "
        "gates (`weight` and `bias` twice); names built at run time are not compared",
    ),
    Row(
        34,
        "Recompilation on a changed scalar input (numbers only; recompiles are not counted)",
        (
            Case(
                "scalar_input_changes",
                dedent("""
            class Net(nn.Cell):
                def construct(self, x, k):
                    return x * k


            def inputs(b):
                return [np.arange(b * 4, dtype=np.float32).reshape(b, 4), 2]


            def variant():
                return [np.arange(8, dtype=np.float32).reshape(2, 4), 3]
            """).lstrip(),
            ),
        ),
        rules=("GM613",),
        why="the exported MindIR froze the scalar: row 44, which GM613 finds at the `export` call; recompiles are "
        "not counted by this measurement",
    ),
    Row(
        35,
        "Nested JIT: a `@jit` function called from construct",
        (_n("nested_jit", "return helper(x)", extra="@ms.jit\ndef helper(x):\n    return x * 2"),),
    ),
    Row(
        36,
        "Deep recursion",
        (
            _n(
                "recursion_600",
                "return x * depth(600)",
                extra="def depth(n):\n    if n == 0:\n        return 0\n    return 1 + depth(n - 1)",
            ),
        ),
        why="report: no mechanical rewrite for recursion deeper than MindSpore's call-depth limit (`ms.set_recursion_limit`)",
    ),
    Row(
        37,
        "`if` on a tensor value (extra subgraphs)",
        (_n("if_tensor", "if x.sum() > 0:\n    return x * 2\nreturn x"),),
        rules=("GM401",),
    ),
    Row(
        38,
        "Ops that produce dynamic shapes",
        (
            _n("masked_select", "return ops.masked_select(x, x > 0)"),
            _n("nonzero", "return ops.nonzero(x)"),
            _n("unique", "y, _ = ops.unique(ops.round(x))\nreturn y"),
        ),
    ),
    Row(
        39,
        "A tuple of tensors as input with a dynamic batch",
        (
            Case(
                "tuple_input",
                dedent("""
            class Net(nn.Cell):
                def construct(self, xs):
                    return xs[0] + xs[1]


            def inputs(b):
                a = np.arange(b * 4, dtype=np.float32).reshape(b, 4)
                return [(a, a * 2)]
            """).lstrip(),
            ),
        ),
        why="a tuple input with a dynamic batch needs `mutable` at the call site, outside graph code: no rule",
    ),
    Row(
        40,
        "MindIR export takes only the STRICT subset (a LAX-only construct)",
        (_n("lax_only_numpy_scalar", "return x * float(np.sqrt(2.0))"),),
        notes=("every row's *export* column measures this too",),
    ),
    Row(
        41,
        "Export: return types (`x.dtype`)",
        (_n("return_dtype", "return x * 2, x.dtype"),),
        why="export only; no rule: bench/limits/prevalence.py over the 8,018 construct methods of the seven real-Cell wheels find no construct returning a dtype (return its name, or nothing)",
    ),
    Row(
        42,
        "Export: `mint.rand`/`randn` in construct",
        (
            _n("mint_rand", "return x + mint.rand(1, 4) * 0"),
            _n("mint_randn", "return x + mint.randn(1, 4) * 0"),
        ),
        why="not measurable on CPU: `mint.rand`/`mint.randn` have no CPU kernel in MindSpore 2.10 (PyNative fails); no rule",
    ),
    Row(
        43,
        "Export: a global Parameter used in construct",
        (
            _n(
                "global_parameter",
                "return x * W",
                extra="W = Parameter(Tensor(np.full((4,), 2.0, np.float32)), name='w_global')",
            ),
        ),
        why="export only; no rule: bench/limits/prevalence.py over the 8,018 construct methods of the seven real-Cell wheels find no module-level Parameter read in construct (define it in `__init__`)",
    ),
    Row(
        44,
        "Export: non-Tensor inputs frozen to constants",
        (
            Case(
                "scalar_input_export",
                dedent("""
            class Net(nn.Cell):
                def construct(self, x, k):
                    return x * k


            def inputs(b):
                return [np.arange(b * 4, dtype=np.float32).reshape(b, 4), 2]


            def variant():
                return [np.arange(8, dtype=np.float32).reshape(2, 4), 3]
            """).lstrip(),
            ),
        ),
        rules=("GM613",),
        why="GM613 finds the number in the `export` call (any import spelling) and wraps it in `mutable` "
        "(unsafe: the MindIR's callers must then pass it); a number held in a variable is not followed",
    ),
    Row(
        45,
        "LAX `Any` values (JIT Fallback) computed in float64",
        (
            _n("fallback_float_dtype", "return Tensor(np.exp(np.float32(0.5))) * x"),
            _n("fallback_sum_floats", "return x + sum([0.1, 0.2])"),
        ),
    ),
    Row(
        46,
        "Hooks (`register_forward_hook`, `register_forward_pre_hook`) in graph mode",
        (
            _n(
                "forward_hook",
                "return self.dense(x)",
                init=DENSE,
                extra="""
            def double_output(cell, inputs, output):
                return output * 2


            def run(net, x):
                net.dense.register_forward_hook(double_output)
                return net(x), net(x)""",
            ),
            _n(
                "forward_pre_hook",
                "return self.dense(x)",
                init=DENSE,
                extra="""
            def double_input(cell, inputs):
                return (inputs[0] * 2,)


            def run(net, x):
                net.dense.register_forward_pre_hook(double_input)
                return net(x), net(x)""",
            ),
        ),
    ),
    Row(
        47,
        "View + in-place ops under grad",
        (
            _n(
                "view_inplace_grad",
                "y = x + 0\nv = y.view(-1)\nv.mul_(2)\nreturn y.sum()",
                extra="""
            def run(net, x):
                return ms.grad(net)(x)""",
            ),
        ),
    ),
    Row(
        48,
        "`str.format` with variable or keyword arguments",
        (
            _n("format_variable", "return x, 'n={}'.format(x.shape[0])"),
            _n("format_keyword", "return x, '{k}'.format(k=self.k)", init="self.k = 3"),
        ),
    ),
    Row(
        49,
        "Source typed in a REPL (no file)",
        (_n("no_source_file", "return x * 2", no_file=True),),
        why="not a code pattern: MindSpore needs the source in a file",
    ),
    Row(
        50,
        "Bytecode capture (`jit(capture_mode='bytecode')`) with unsupported syntax",
        (
            _n(
                "bytecode_try",
                "return helper(x)",
                extra="""
            @ms.jit(capture_mode="bytecode")
            def helper(x):
                try:
                    return x * 2
                except ValueError:
                    return x""",
            ),
        ),
        why="GRAPH_MODE parses a bytecode-captured function that construct calls like any graph code, and it "
        "fails; called from PyNative it ran. No rule: GM606 skips such functions, since whether GRAPH_MODE compiles "
        "them is decided outside the file",
    ),
)


def all_cases() -> list[tuple[Row, Case]]:
    return [(row, case) for row in ROWS for case in row.cases]
