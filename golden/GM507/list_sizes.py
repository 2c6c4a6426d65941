"""Sizes given as a Python list or unpacked with `*`: `ops.tile` and `ops.broadcast_to` take a tuple, never a
list (measured: "Failed calling Tile with dims=list" in every mode). mindnlp's LongT5 builds its `reps` so."""
from mindspore import nn


class SideTiles(nn.Cell):
    def construct(self, x, y):
        reps = [1] * (x.ndim + 1)
        reps[1] = y.shape[1]
        tiled = x.unsqueeze(1).repeat(reps)
        literal = x.repeat([1, 2, 1])
        listed = [2, 1, 1]
        again = x.repeat(listed)
        starred = x.repeat(*listed)
        return tiled, literal, again, starred


class LeftAlone(nn.Cell):
    def construct(self, x, n):
        scaled = [1] * x  # a list times a tensor: not a list of sizes
        return x.repeat(scaled)
