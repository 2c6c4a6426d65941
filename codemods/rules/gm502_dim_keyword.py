import libcst as cst

from graphmend.messages import explains
from graphmend.rule import Rule
from graphmend.rules._torch_table import DIM_KEYWORDS, AxisOp
from graphmend.targets import DYNAMIC, EXPORT, GRAPH, STRICT, breaks


class DimKeyword(Rule):
    """`dim=` / `keepdim=` on `ops` functions that take `axis=` / `keepdims=` (a PyTorch leftover).

    What it does:
        Renames torch's `dim=` and `keepdim=` keywords on the `mindspore.ops` functions whose MindSpore
        2.10 signature spells them `axis=` and `keepdims=` (or `keep_dims=`): `ops.softmax`, `ops.cat`,
        `ops.concat`, `ops.stack`, `ops.split`, `ops.mean`, `ops.max`, `ops.squeeze` and the rest of the
        table `DIM_KEYWORDS` in `codemods/rules/_torch_table.py`. Functions that take `dim` (`ops.sum`,
        `ops.argmax`, `ops.topk`, `ops.unsqueeze`…), `mint.*` and Tensor methods (`x.sum(dim=1)`)
        accept it and are left alone.

    Why it breaks graph mode:
        The functional ops reject the keyword: PyNative raises "softmax() got an unexpected keyword
        argument 'dim'", GRAPH_MODE "Got an unexpected keyword argument 'dim'". The code
        does not run in any mode until the keyword is renamed.

    Example:
        key_layer = ops.cat([past_key_value[0], key_layer], dim=2)
        # becomes
        key_layer = ops.cat([past_key_value[0], key_layer], axis=2)

    Fix safety:
        Safe: the same argument under MindSpore's name, and the original cannot run. Unsafe for
        `ops.std` and `ops.var`, whose ddof defaults to 0 where torch's is the unbiased 1: check which
        was meant. A call that also passes the MindSpore keyword, or a keyword the function does not
        take (`ops.gather(x, dim=1, index=i)` is torch's gather), is reported without a fix.
    """

    CODE = "GM502"
    NAME = "dim-keyword"
    BREAKS = breaks(GRAPH, STRICT, DYNAMIC, EXPORT, pynative=True)
    EXPLAINS = (explains(r"Got an unexpected keyword argument 'dim'", GRAPH, STRICT, DYNAMIC, EXPORT),)
    FIX = "safe/unsafe"

    def visit_Call(self, node: cst.Call) -> None:
        short = next(
            (n[len("mindspore.ops.") :] for n in self.ctx.names(node.func) if n.startswith("mindspore.ops.")),
            "",
        )
        op = DIM_KEYWORDS.get(short)
        if op is None:
            return
        renames = op.renames
        torch_keywords = [a.keyword.value for a in node.args if a.keyword and a.keyword.value in renames]
        if not torch_keywords:
            return
        theirs = "/".join(f"`{renames[k]}=`" for k in torch_keywords)
        torchs = "/".join(f"`{k}=`" for k in torch_keywords)
        message = (
            f"`{self.ctx.code(node.func)}` in {self.ctx.where()} takes {theirs}, not torch's {torchs}: "
            "the call fails in every mode"
        )
        problem = _problem(node, op, short)
        if problem:
            self.report(node, f"{message} ({problem}: rewrite by hand)")
            return
        fixed = node.with_changes(args=[_renamed(a, renames) for a in node.args])
        if op.caveat:
            self.report(node, f"{message}; check the result: {op.caveat}", fixed, "unsafe")
        else:
            self.report(node, message, fixed)


def _renamed(argument: cst.Arg, renames: dict[str, str]) -> cst.Arg:
    if argument.keyword is None or argument.keyword.value not in renames:
        return argument
    return argument.with_changes(keyword=argument.keyword.with_changes(value=renames[argument.keyword.value]))


def _problem(node: cst.Call, op: AxisOp, short: str) -> str:
    """Why renaming alone would not make a valid call ("" when it would)."""
    if any(a.star for a in node.args):
        return "star arguments"
    renames = op.renames
    final = [renames.get(a.keyword.value, a.keyword.value) for a in node.args if a.keyword]
    if len(set(final)) != len(final):
        return "both spellings are given"
    unknown = [k for k in final if k not in op.parameters]
    return f"`{unknown[0]}=` is not a parameter of `ops.{short}`" if unknown else ""
