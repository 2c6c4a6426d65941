import mindspore as ms
from mindspore import nn, ops


class Pairs(nn.Cell):
    def construct(self, x):
        # every pair of scales
        pairs = []
        for i in range(2):
            if i >= 0:
                for j in range(3):
                    pairs.append(i * j)
        grid = [(a, b) for a, b in zip(range(2), range(2)) for c in range(2) if c]
        total = sum(i * j for i in range(2) for j in range(3))
        index = {i * 3 + j: j for i in range(2) for j in range(3)}
        k = 0
        reused = [k * m for k in range(2) for m in range(2)]  # k is a local too: reported only
        pairs2 = [pairs2 for pairs2 in range(2) for _ in range(2)]
        return x * (sum(pairs) + total + index[4] + len(grid) + sum(reused) + len(pairs2) + k)


@ms.jit
def outer(x):
    cells = []
    for i in range(2):
        for _ in range(2):
            cells.append(x * i)
    return ops.stack(cells).sum(0)


class Wrapped(nn.Cell):
    """XLNet's outputs: a generator with two clauses in `tuple(...)`, reading the name it is assigned to."""

    def construct(self, x):
        hidden = ((x, x + 1), (x * 2,))
        hidden_items = []
        for hs in hidden:
            for h in hs:
                hidden_items.append(h.sum())
        hidden = tuple(hidden_items)  # flattened
        flat = []
        for row in ((1, 2), (3,)):
            if row:
                for v in row:
                    flat.append(v)
        most = max(v for row in ((1, 2), (3,)) for v in row)  # not tuple/list: reported only
        return hidden[0] + sum(flat) + most
