import mindspore
from mindspore import nn, ops


class Bound(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flag = True
        self.n = 3

    def construct(self, x, mask=None):
        y = x
        if mask is not None:
            y = x * mask
        if self.flag:
            z = x  # decided while MindSpore parses
        if self.n > 2 and not self.flag:
            z = x + 1
        if x.ndim == 2:
            a = x
        else:
            a = x + 1
        if mask is None:
            return y + z + a
        else:
            b = mask
        for i in range(3):
            c = x * i
            y = y + c  # only read inside the loop
        out = [v * 2 for v in (x, y)]
        v = out[0]  # the comprehension's own `v`
        if mask is not None:
            w = mask
        w = x  # rebound before any read
        return y + b + v + w


class Raises(nn.Cell):
    def construct(self, x, mode):
        if mode == "a":
            y = x
        elif mode == "b":
            y = x * 2
        else:
            raise ValueError(mode)
        for k in range(2):
            if k == 0:
                continue
        return y


def not_graph(x, flag):
    if flag:
        y = x
    return y


class BoundAgainOnEveryPath(nn.Cell):
    """A second `if` with an `else`, both binding it: bound before the read (runs in GRAPH and STRICT)."""

    def construct(self, x):
        if x.shape[0] > 1:
            y = x * 2
        if x.shape[0] > 5:
            y = x
        else:
            y = x * 3
        return y + 1


class LoopInEachBranch(nn.Cell):
    """mindcv's SelectiveKernel: each branch has its own loop over `op`, read only inside it."""

    def __init__(self):
        super().__init__()
        self.paths = nn.CellList([nn.Dense(4, 4), nn.Dense(4, 4)])
        self.split_input = True

    def construct(self, x):
        x_paths = []
        if x.shape[0] > 1:
            for i, op in enumerate(self.paths):
                x_paths.append(op(x[i]))
        else:
            for op in self.paths:
                x_paths.append(op(x))
        return x_paths


class WalrusInTheTest(nn.Cell):
    """mindone's Olmo3/SmolLM3 models: the `if`'s own test binds the name with `:=`, so every path has it
    (GM603 reports the walrus itself)."""

    def construct(self, x, attention_mask=None):
        if not isinstance(causal_mask_mapping := attention_mask, dict):
            causal_mask_mapping = {"full_attention": x}
        while (n := x.shape[0]) > 8:
            x = x[: n // 2]
        return causal_mask_mapping["full_attention"] * n
