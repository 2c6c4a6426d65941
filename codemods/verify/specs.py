"""Input specs: the text of `--input` parsed into plain values a worker can rebuild inputs from.

Grammar (one spec per positional input of `construct`):

    float32[2,3,32,32]        a tensor; floats are standard-normal
    float32[2,3]{-1,1}        floats uniform in [-1, 1)
    int32[2,16]               integers in [0, 10)
    int32[2,16]{0,30000}      integers in [0, 30000)
    float32[B,5,16]           B is dynamic, 2 by default; `B=4` sets it
    int:4  float:0.5  bool:true  none

A name means the same size wherever it appears; the dynamic check also runs every named
dimension one larger. Nothing here imports numpy or MindSpore: the parent process only parses.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

DEFAULT_DIM = 2
FLOAT_DTYPES = ("float16", "bfloat16", "float32", "float64")
INT_DTYPES = ("int8", "int16", "int32", "int64", "uint8")
DTYPES = FLOAT_DTYPES + INT_DTYPES + ("bool",)
DEFAULT_INT_RANGE = (0, 10)

_TENSOR = re.compile(r"^(?P<dtype>\w+)\[(?P<dims>[^\]]*)\](?:\{(?P<range>[^}]*)\})?$")
_NAMED_DIM = re.compile(r"^(?P<name>[A-Za-z_]\w*)(?:=(?P<size>\d+))?$")


class SpecError(ValueError):
    """A spec that cannot be parsed; the message says what a valid one looks like."""


@dataclass(frozen=True)
class Dim:
    size: int
    name: str | None = None  # named dimensions are dynamic


@dataclass(frozen=True)
class TensorSpec:
    dtype: str
    dims: tuple[Dim, ...]
    low: float | None = None
    high: float | None = None


@dataclass(frozen=True)
class ScalarSpec:
    value: int | float | bool | None


Spec = TensorSpec | ScalarSpec


def parse_specs(texts: list[str]) -> tuple[Spec, ...]:
    """Parse every spec and give one size to each dimension name."""
    specs = tuple(parse_spec(text) for text in texts)
    sizes = _named_sizes(specs)
    return tuple(_resize(spec, sizes) for spec in specs)


def parse_spec(text: str) -> Spec:
    text = text.strip()
    if text.lower() == "none":
        return ScalarSpec(None)
    kind, sep, value = text.partition(":")
    if sep:
        return _parse_scalar(text, kind.strip().lower(), value.strip())
    return _parse_tensor(text)


def is_dynamic(specs: tuple[Spec, ...]) -> bool:
    return any(dim.name for spec in specs if isinstance(spec, TensorSpec) for dim in spec.dims)


def describe(spec: Spec) -> str:
    """The spec as the user would write it, sizes resolved."""
    if isinstance(spec, ScalarSpec):
        value = spec.value
        return "none" if value is None else f"{type(value).__name__}:{str(value).lower()}"
    dims = ",".join(f"{d.name}={d.size}" if d.name else str(d.size) for d in spec.dims)
    bounds = "" if spec.low is None else f"{{{_num(spec.low)},{_num(spec.high)}}}"
    return f"{spec.dtype}[{dims}]{bounds}"


def _parse_scalar(text: str, kind: str, value: str) -> ScalarSpec:
    try:
        if kind == "int":
            return ScalarSpec(int(value))
        if kind == "float":
            return ScalarSpec(float(value))
    except ValueError:
        raise SpecError(f"bad input spec {text!r}: {value!r} is not a {kind}") from None
    if kind == "bool" and value.lower() in ("true", "false"):
        return ScalarSpec(value.lower() == "true")
    raise SpecError(f"bad input spec {text!r}: scalars are int:4, float:0.5, bool:true, bool:false or none")


def _parse_tensor(text: str) -> TensorSpec:
    match = _TENSOR.match(text.replace(" ", ""))
    if not match:
        raise SpecError(
            f"bad input spec {text!r}: expected DTYPE[DIMS] such as float32[2,3,32,32], "
            "int32[B,16]{0,30000}, or a scalar (int:4, float:0.5, bool:true, none)"
        )
    dtype = match["dtype"]
    if dtype not in DTYPES:
        raise SpecError(f"bad input spec {text!r}: unknown dtype {dtype!r}; use one of {', '.join(DTYPES)}")
    dims = tuple(_parse_dim(text, part) for part in match["dims"].split(",")) if match["dims"] else ()
    low, high = _parse_range(text, dtype, match["range"])
    return TensorSpec(dtype, dims, low, high)


def _parse_dim(text: str, part: str) -> Dim:
    if part.isdigit():
        return Dim(int(part))
    named = _NAMED_DIM.match(part)
    if not named:
        raise SpecError(f"bad input spec {text!r}: dimension {part!r} is neither a size nor a name like B or B=4")
    size = named["size"]
    if size is not None and int(size) < 1:
        raise SpecError(f"bad input spec {text!r}: dynamic dimension {part!r} needs a size of at least 1")
    return Dim(int(size) if size is not None else 0, named["name"])


def _parse_range(text: str, dtype: str, bounds: str | None) -> tuple[float | None, float | None]:
    if bounds is None:
        return DEFAULT_INT_RANGE if dtype in INT_DTYPES else (None, None)
    if dtype == "bool":
        raise SpecError(f"bad input spec {text!r}: a bool tensor takes no value range")
    parts = bounds.split(",")
    try:
        low, high = (float(p) for p in parts) if len(parts) == 2 else (None, None)
    except ValueError:
        low = high = None
    if low is None or high is None or not low < high:
        raise SpecError(f"bad input spec {text!r}: the value range must read {{LOW,HIGH}} with LOW < HIGH")
    if dtype in INT_DTYPES:
        return int(low), int(high)
    return low, high


def _named_sizes(specs: tuple[Spec, ...]) -> dict[str, int]:
    sizes: dict[str, int] = {}
    for dim in (d for s in specs if isinstance(s, TensorSpec) for d in s.dims if d.name and d.size):
        if sizes.setdefault(dim.name, dim.size) != dim.size:
            raise SpecError(f"dimension {dim.name} is given two sizes: {sizes[dim.name]} and {dim.size}")
    return sizes


def _resize(spec: Spec, sizes: dict[str, int]) -> Spec:
    if not isinstance(spec, TensorSpec):
        return spec
    dims = tuple(Dim(sizes.get(d.name, DEFAULT_DIM), d.name) if d.name else d for d in spec.dims)
    return TensorSpec(spec.dtype, dims, spec.low, spec.high)


def _num(value: float | None) -> str:
    return str(int(value)) if value is not None and float(value).is_integer() else str(value)


def to_json(spec: Spec) -> dict:
    """The form a worker reads: named dimensions carry their name so it can grow or free them."""
    if isinstance(spec, ScalarSpec):
        return {"scalar": spec.value}
    dims = [[d.size, d.name] for d in spec.dims]
    return {"dtype": spec.dtype, "dims": dims, "low": spec.low, "high": spec.high}
