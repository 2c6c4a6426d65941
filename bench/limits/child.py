"""Run limit cases in MindSpore (the only file of bench/limits that imports it): one JSON line per case.

    python bench/limits/child.py WORKDIR CASE_ID...

Each case module (bench/limits/cases.py writes it into WORKDIR) defines `Net`, optionally `inputs(b)`,
`variant()` (other non-tensor values with the same shapes) and `run(net, *inputs)` (how to call it; by
default twice). Every mode builds a fresh `Net` under the same seed and is compared with PyNative.
"""

import importlib
import json
import os
import sys
import traceback

import mindspore as ms
import numpy as np
from mindspore import nn

MODES = ("graph", "strict", "dynamic", "export")


def main() -> None:
    workdir, ids = sys.argv[1], sys.argv[2:]
    sys.path.insert(0, workdir)
    os.chdir(workdir)
    for case_id in ids:
        print(json.dumps({"id": case_id, **measure(case_id)}), flush=True)


def measure(case_id: str) -> dict:
    try:
        if os.path.exists(os.path.join(os.getcwd(), case_id + ".nofile")):
            mod = _no_file_module(case_id)
        else:
            mod = importlib.import_module(case_id)
    except Exception as exc:  # noqa: BLE001
        return {"pynative": _error(exc)}
    result = {}
    ms.set_context(mode=ms.PYNATIVE_MODE)
    try:
        reference = _calls(mod, dynamic=True)
        reference["one call"] = _fresh(mod)(*_inputs(mod, 2))
        result["pynative"] = {"ok": True, "value": _show(reference["main"])}
    except Exception as exc:  # noqa: BLE001
        result["pynative"] = _error(exc)
        reference = None
    for mode in MODES:
        result[mode] = _mode(mod, mode, reference)
    return result


def _mode(mod, mode: str, reference) -> dict:
    level = ms.STRICT if mode in ("strict", "export") else ms.LAX
    ms.set_context(mode=ms.GRAPH_MODE, jit_syntax_level=level)
    try:
        if mode == "export":
            got = _export(mod)
        else:
            got = _calls(mod, dynamic=mode == "dynamic")
    except Exception as exc:  # noqa: BLE001
        return _error(exc)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE, jit_syntax_level=ms.LAX)
    if reference is None:
        return {"ok": True, "value": _show(got["main"]), "note": "PyNative failed: nothing to compare with"}
    for key, value in got.items():
        problem = _differ(reference[key], value)
        if problem:
            return {"ok": False, "differs": f"{key}: {problem}", "value": _show(value)}
    return {"ok": True}


def _fresh(mod):
    ms.set_seed(0)
    np.random.seed(0)
    return mod.Net()


def _inputs(mod, b: int) -> list:
    raw = mod.inputs(b) if hasattr(mod, "inputs") else [np.arange(b * 4, dtype=np.float32).reshape(b, 4) / 3 - 1]
    return [_tensor(v) for v in raw]


def _tensor(value):
    if isinstance(value, tuple):
        return tuple(_tensor(v) for v in value)
    return ms.Tensor(value) if isinstance(value, np.ndarray) else value


def _run(mod, net, inputs):
    if hasattr(mod, "run"):
        return mod.run(net, *inputs)
    return (net(*inputs), net(*inputs))


def _calls(mod, dynamic: bool) -> dict:
    net = _fresh(mod)
    small = _inputs(mod, 2)
    if dynamic and ms.get_context("mode") == ms.GRAPH_MODE:
        net.set_inputs(*[_placeholder(v) for v in small])
    out = {"main": _run(mod, net, small)}
    if dynamic:
        out["batch 3"] = net(*_inputs(mod, 3))
    if hasattr(mod, "variant") and not (dynamic and ms.get_context("mode") == ms.GRAPH_MODE):
        out["variant"] = net(*[_tensor(v) for v in mod.variant()])
    return out


def _placeholder(value):
    if isinstance(value, ms.Tensor):
        return ms.Tensor(shape=[None, *value.shape[1:]], dtype=value.dtype)
    if isinstance(value, tuple):
        return tuple(_placeholder(v) for v in value)
    return value


def _export(mod) -> dict:
    net = _fresh(mod)
    small = _inputs(mod, 2)
    ms.export(net, *small, file_name="exported", file_format="MINDIR")
    loaded = nn.GraphCell(ms.load("exported.mindir"))
    tensors = [v for v in small if isinstance(v, (ms.Tensor, tuple))]
    first = loaded(*tensors)
    out = {"one call": first}
    if not hasattr(mod, "run"):  # a custom call sequence cannot run on a loaded graph
        out["main"] = (first, loaded(*tensors))
    if hasattr(mod, "variant"):
        out["variant"] = loaded(*[_tensor(v) for v in mod.variant() if isinstance(v, np.ndarray)])
    return out


def _flat(value, name="out"):
    if isinstance(value, (tuple, list)):
        items = []
        for i, v in enumerate(value):
            items += _flat(v, f"{name}[{i}]")
        return items
    if isinstance(value, dict):
        items = []
        for k in sorted(value, key=str):
            items += _flat(value[k], f"{name}[{k!r}]")
        return items
    return [(name, value)]


def _differ(want, have) -> str | None:
    w, h = _flat(want), _flat(have)
    if len(w) != len(h):
        return f"{len(h)} outputs, PyNative {len(w)}"
    for (name, a), (_, b) in zip(w, h, strict=True):
        problem = _leaf_differ(a, b)
        if problem:
            return f"{name} {problem}"
    return None


def _leaf_differ(a, b) -> str | None:
    if isinstance(a, ms.Tensor) and isinstance(b, ms.Tensor):
        x, y = a.asnumpy(), b.asnumpy()
        if x.shape != y.shape or x.dtype != y.dtype:
            return f"is {y.dtype}{list(y.shape)}, PyNative {x.dtype}{list(x.shape)}"
        if not np.allclose(x, y, rtol=1e-5, atol=1e-6, equal_nan=True):
            diff = np.abs(x.astype(np.float64) - y.astype(np.float64))
            return f"values differ (max abs {float(np.nanmax(diff)):.3g})"
        return None
    if type(a) is not type(b):
        return f"is {_show(b)} ({type(b).__name__}), PyNative {_show(a)} ({type(a).__name__})"
    if isinstance(a, (int, float, bool, str, type(None))):
        return None if a == b else f"is {b!r}, PyNative {a!r}"
    return None


def _show(value) -> str:
    if isinstance(value, ms.Tensor):
        arr = value.asnumpy()
        text = np.array2string(arr.reshape(-1)[:6], precision=4, separator=",")
        return f"Tensor {arr.dtype}{list(arr.shape)} {text}"
    if isinstance(value, (tuple, list)):
        return "(" + ", ".join(_show(v) for v in value) + ")"
    return repr(value)[:80]


def _error(exc: BaseException) -> dict:
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    first = lines[0] if lines else ""
    where = traceback.extract_tb(exc.__traceback__)
    return {"ok": False, "error": f"{type(exc).__name__}: {first}"[:300], "at": where[-1].name if where else ""}


def _no_file_module(case_id: str):
    import types

    with open(case_id + ".nofile", encoding="utf-8") as handle:
        source = handle.read()
    mod = types.ModuleType(case_id)
    sys.modules[case_id] = mod
    exec(compile(source, "<stdin>", "exec"), mod.__dict__)  # noqa: S102 - the measured case itself
    return mod


if __name__ == "__main__":
    main()
