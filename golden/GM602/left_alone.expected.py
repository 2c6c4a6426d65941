from mindspore import nn


def host_search(items):
    for item in items:  # not graph code: Python runs it
        if item is None:
            break
    else:
        return True
    return False


class Plain(nn.Cell):
    def __init__(self):
        super().__init__()
        for _ in range(2):  # __init__ runs in Python
            pass
        else:
            self.ready = True

    def construct(self, x):
        for i in range(3):  # a loop without else
            if i == 1:
                break
            x = x + i
        return x
