import mindspore as ms
from mindspore import nn, ops


class Gate(nn.Cell):
    def construct(self, x):
        # scale by the width when there is more than one column
        if (n := x.shape[1]) > 1:
            x = x * n
        if not (m := x.shape[0]):
            x = x + 1
        if not isinstance(mapping := x, dict):  # ported Hugging Face models
            x = mapping * 2
        if ops.relu(y := x) is None:  # the callee is an attribute: reported only
            x = y
        if (k := 2):  # a plain test
            x = x * k
        if x.shape[0] > 0 and (w := 3) > 1:  # not the first operand: reported only
            x = x * w
        elif (v := 4) > 1:
            x = x - v
        while (i := x.shape[0]) > 9:
            x = x[1:]
        total = sum([y for t in range(3) if (y := t * 2)])
        return ops.relu(x) + total


@ms.jit
def helper(x):
    if (s := x.sum()) > 0:
        return x / s
    return x
