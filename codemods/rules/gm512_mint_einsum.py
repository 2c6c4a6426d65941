from __future__ import annotations

import libcst as cst

from graphmend.messages import explains
from graphmend.rules.gm511_einsum import Einsum
from graphmend.targets import DYNAMIC, breaks

_MINT = frozenset({"mindspore.mint.einsum"})


class MintEinsum(Einsum):
    """`mint.einsum(equation, a, b)` under a dynamic batch → GM511's transposes, `ops.matmul` and broadcasting.

    What it does:
        Finds `mint.einsum` calls in graph code and rewrites them as GM511 rewrites `ops.einsum`: one or two
        operands, any number of contracted indices, the indices written out or after a leading `...`; other
        equations are reported with what to write instead. What breaks is a dynamic batch, and so the
        export target (which graphmend takes to use one); it is reported for every target because PyNative
        on CPU fails too (measured; on Ascend, PyNative and static graphs run it, so with `--target graph` or
        `strict` there its findings change nothing: `--ignore GM512`).

    Why it breaks graph mode:
        `mint.einsum` is the `EinsumExt` primitive. Measured on MindSpore 2.10 (CPU,
        tests/verify_rules/torch_port/gm512_mint_einsum.py and tests/test_gm511_einsum.py): with a dynamic
        batch compiling fails ("For EinsumExt, dynamic shape or dynamic rank is not supported yet"), and
        PyNative on CPU has no kernel for it ("einsum only supports Ascend"); GRAPH, STRICT and export with
        static shapes compile it. mindone's ports call it in attention and mixing layers (242 calls in 96
        files of the six-package corpus, by `grep`).

    Example:
        scores = mint.einsum("bnqd,bnkd->bnqk", q, k)
        # becomes
        scores = ops.matmul(q, ops.swapaxes(k, 2, 3))

    Fix safety:
        Safe, as GM511's: the same products summed over the same index (checked against numpy's `einsum`
        by tests/test_gm511_einsum.py), the same shape and dtype; graphmend's own fix of the Cell above
        compiles in GRAPH, STRICT, a dynamic batch and export with the numbers of its PyNative run.
    """

    CODE = "GM512"
    NAME = "mint-einsum-dynamic"
    BREAKS = breaks(DYNAMIC, pynative=True, note="EinsumExt has no dynamic shape; PyNative on CPU has no kernel")
    EXPLAINS = (explains(r"For EinsumExt, dynamic shape or dynamic rank is not supported yet", DYNAMIC),)
    FIX = "safe"

    def _head(self, node: cst.Call, text: str | None) -> str | None:
        if not self.ctx.names(node.func) & _MINT:
            return None
        func = self.ctx.code(node.func)
        spelled = f'{func}("{text}", …)' if text is not None else f"{func}(…)"
        return (
            f"`{spelled}` in {self.ctx.where()}: a dynamic batch cannot compile it ('For EinsumExt, dynamic shape "
            "or dynamic rank is not supported yet'), and PyNative on CPU has no kernel for it"
        )
