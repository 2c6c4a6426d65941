from mindspore import nn


class Scaled(nn.Cell):
    factor = 3

    @classmethod
    def by_factor(cls, x):
        # cls is the class the method was called on
        return x * cls.factor + cls.offset()

    @staticmethod
    def offset():
        return 1

    @classmethod
    def rebinds(cls, x):
        cls = Scaled
        return x * cls.factor

    @classmethod
    def nothing():
        return 1

    def construct(self, x):
        return self.by_factor(x) + self.rebinds(x) + self.nothing()
