"""`graphmend record`'s hook: records how the user's own Cells are built and called, in the user's process.

`graphmend record -- COMMAND` puts this directory first on PYTHONPATH and names a configuration file in
GRAPHMEND_RECORD, so every Python process COMMAND starts loads this module at startup (Python imports
`sitecustomize` by itself). It imports nothing from graphmend, only what the user's interpreter has; it runs
the user's code (that is what `record` is for), and it does nothing until MindSpore is imported. Then:

- `ms.set_context(mode=GRAPH_MODE)` is kept in PyNative: only PyNative calls each Cell's `__call__`, so
  only there can the Cells inside a model be seen.
- `Cell.__new__` keeps each instance's constructor arguments (weakly, by instance).
- `Cell.__call__`, for an instance of a class defined in the tree, records before the call: the
  constructor arguments (when they can be rebuilt: numbers, strings, None, tuples, lists, dicts, dtypes,
  arrays, module-level classes and functions, functools.partial, nested Cells by their own arguments),
  the `training` flag, the Parameters (names relative to the instance) and the inputs.

Bounded: a few samples per class (one per distinct constructor, input signature and training flag), an
array over `max_array_mb` is kept as its statistics (shape, dtype, range, mean, std: the verifier draws a
stand-in), Parameters only while the class stays under `max_cell_mb`, and nothing once the recording
holds `max_total_mb`. Arrays are written as they are taken (`arrays/`, named by content, so a Parameter
shared by a model and its blocks is stored once); the index of each process is written when it exits
(`cells-PID.json`). A recording never changes what the user's code computes, only the graph mode it runs in.
"""

import atexit
import functools
import hashlib
import json
import os
import sys
import weakref

_HERE = os.path.dirname(os.path.abspath(__file__))
FORMAT = 1


def _chain() -> None:
    """Run the sitecustomize this one hides (a virtualenv's or a distribution's), if there is one."""
    import importlib.machinery
    import importlib.util

    path = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", path)
    if spec is not None and spec.loader is not None:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)


class Unrebuildable(Exception):
    """A value `record` cannot write down so that the verifier can make it again; says what it is."""


class Recorder:
    def __init__(self, config: dict):
        self.out = config["output"]
        self.roots = [os.path.realpath(r) for r in config["tree"]]
        self.max_samples = config["max_samples"]
        self.max_array = config["max_array_mb"] * 1e6
        self.max_cell = config["max_cell_mb"] * 1e6
        self.max_total = config["max_total_mb"] * 1e6
        self.cells: dict[str, dict] = {}
        self.stored: dict[str, int] = {}  # array file -> bytes, across the recording's classes
        self.total = _stored_bytes(os.path.join(self.out, "arrays"))  # another process of the command may have some
        self.inits = weakref.WeakKeyDictionary()
        self.classes: dict[type, str | None] = {}
        self.busy = False
        self.np = self.ms = None
        self.forced_pynative = 0

    # -- the patches ---------------------------------------------------------------------------

    def install(self, ms) -> None:
        import numpy as np

        self.ms, self.np = ms, np
        cell = ms.nn.Cell
        original_new, original_call = cell.__new__, cell.__call__
        recorder = self

        def __new__(class_, *args, **kwargs):
            this = original_new(class_, *args, **kwargs)
            try:
                recorder.inits[this] = (args, kwargs)
            except TypeError:
                pass
            return this

        @functools.wraps(original_call)
        def __call__(self, *args, **kwargs):
            if not recorder.busy and recorder.key(type(self)) is not None:
                recorder.busy = True
                try:
                    recorder.observe(self, args, kwargs)
                except Exception as exc:  # recording must never change what the user's code does
                    recorder.note(type(self), f"not recorded: {type(exc).__name__}: {exc}")
                finally:
                    recorder.busy = False
            return original_call(self, *args, **kwargs)

        cell.__new__ = staticmethod(__new__)
        cell.__call__ = __call__
        self.patch_set_context(ms)
        atexit.register(self.write)

    def patch_set_context(self, ms) -> None:
        import mindspore.context as context

        original = context.set_context
        recorder = self

        @functools.wraps(original)
        def set_context(**kwargs):
            if kwargs.get("mode") == ms.GRAPH_MODE:
                kwargs["mode"] = ms.PYNATIVE_MODE
                recorder.forced_pynative += 1
            return original(**kwargs)

        context.set_context = ms.set_context = set_context

    # -- which classes -------------------------------------------------------------------------

    def key(self, cls) -> str | None:
        """`path/in/tree.py:QualName` for a class defined in the tree, None for any other."""
        if cls in self.classes:
            return self.classes[cls]
        found = None
        module = sys.modules.get(cls.__module__)
        path = getattr(module, "__file__", None)
        if path and "<locals>" not in cls.__qualname__:
            real = os.path.realpath(path)
            for root in self.roots:
                if real.startswith(root + os.sep) or real == root:
                    found = os.path.relpath(real, root).replace(os.sep, "/") + ":" + cls.__qualname__
                    break
        self.classes[cls] = found
        return found

    def entry(self, cls) -> dict:
        key = self.key(cls)
        if key not in self.cells:
            module = sys.modules.get(cls.__module__)
            self.cells[key] = {
                "file": os.path.realpath(module.__file__),
                "module": cls.__module__,
                "class": cls.__qualname__,
                "calls": 0,
                "signatures": {},
                "samples": [],
                "notes": [],
                "stored_bytes": 0,
            }
        return self.cells[key]

    def note(self, cls, text: str) -> None:
        if self.key(cls) is not None:
            notes = self.entry(cls)["notes"]
            if text not in notes and len(notes) < 5:
                notes.append(text)

    # -- a call ----------------------------------------------------------------------------------

    def observe(self, cell, args, kwargs) -> None:
        entry = self.entry(type(cell))
        entry["calls"] += 1
        training = bool(getattr(cell, "training", False))
        called = [self.signature(a) for a in args] + [f"{k}={self.signature(v)}" for k, v in kwargs.items()]
        signature = ("train " if training else "eval ") + ", ".join(called)
        seen = entry["signatures"]
        if signature in seen or len(seen) < 50:
            seen[signature] = seen.get(signature, 0) + 1
        if len(entry["samples"]) >= self.max_samples:
            return
        init, init_problem = self.construction(cell)
        same = json.dumps(init, sort_keys=True)
        if any(s["signature"] == signature and json.dumps(s["init"], sort_keys=True) == same for s in entry["samples"]):
            return
        sample = {
            "training": training,
            "signature": signature,
            "init": init,
            "init_problem": init_problem,
        }
        try:
            sample["args"] = [self.encode(a, entry) for a in args]
            sample["kwargs"] = {str(k): self.encode(v, entry) for k, v in kwargs.items()}
            sample["inputs_problem"] = None
        except Unrebuildable as exc:
            sample["args"], sample["kwargs"], sample["inputs_problem"] = None, None, str(exc)
        sample["params"], sample["params_note"] = self.parameters(cell, entry)
        entry["samples"].append(sample)

    def construction(self, cell) -> tuple[dict | None, str | None]:
        saved = self.inits.get(cell)
        if saved is None:
            return None, "its constructor arguments were not seen (built before MindSpore was imported?)"
        args, kwargs = saved
        try:
            return self.arguments(args, kwargs, self.entry(type(cell)), 0, _parameters(type(cell))), None
        except Unrebuildable as exc:
            return None, f"a constructor argument cannot be rebuilt: {exc}"

    def arguments(self, args, kwargs, entry, depth, names=()) -> dict:
        encoded_args = []
        for i, value in enumerate(args):
            name = f"argument {i + 1}" + (f" ({names[i]})" if i < len(names) else "")
            encoded_args.append(self.wrap(name, value, entry, depth))
        encoded_kwargs = {str(k): self.wrap(k, v, entry, depth) for k, v in kwargs.items()}
        return {"args": encoded_args, "kwargs": encoded_kwargs}

    def wrap(self, name, value, entry, depth):
        try:
            return self.encode(value, entry, depth)
        except Unrebuildable as exc:
            raise Unrebuildable(f"{name} is {exc}") from None

    # -- values ----------------------------------------------------------------------------------

    def encode(self, value, entry, depth=0):
        """A JSON form the verifier rebuilds the value from, or Unrebuildable saying what it is."""
        ms, np = self.ms, self.np
        if depth > 20:
            raise Unrebuildable("nested too deeply")
        if value is None or isinstance(value, (bool, int, str)):
            return {"v": value}
        if isinstance(value, float):
            return {"v": value} if value == value and abs(value) != float("inf") else {"float": repr(value)}
        if isinstance(value, (tuple, list)):
            items = [self.encode(v, entry, depth + 1) for v in value]
            return {"tuple" if isinstance(value, tuple) else "list": items}
        if isinstance(value, dict):
            if not all(isinstance(k, str) for k in value):
                raise Unrebuildable("a dict whose keys are not all strings")
            return {"dict": [[k, self.encode(v, entry, depth + 1)] for k, v in value.items()]}
        if isinstance(value, ms.Tensor):
            return self.tensor(value, entry)
        if isinstance(value, np.ndarray):
            return {"ndarray": self.array(value, entry)}
        if isinstance(value, np.generic):
            return {"npscalar": str(value.dtype), "v": value.item()}
        if isinstance(value, ms.dtype.Type):
            return {"mstype": str(value)}
        if isinstance(value, ms.nn.Cell):
            saved = self.inits.get(value)
            if saved is None:
                raise Unrebuildable(f"a {type(value).__name__} whose own constructor arguments were not seen")
            ref = self.reference(type(value))
            return {"cell": ref} | self.arguments(*saved, entry, depth + 1)
        if isinstance(value, functools.partial):
            return {"partial": self.encode(value.func, entry, depth + 1)} | self.arguments(
                value.args, value.keywords, entry, depth + 1
            )
        if isinstance(value, type) or callable(value):
            return {"ref": self.reference(value)}
        raise Unrebuildable(f"a {type(value).__module__}.{type(value).__qualname__} object")

    def reference(self, obj) -> str:
        """`module:qualname` of a class or function a fresh process can import, else Unrebuildable."""
        module, qualname = getattr(obj, "__module__", None), getattr(obj, "__qualname__", None)
        what = f"{module}.{qualname}" if module and qualname else repr(obj)[:80]
        if not module or not qualname or "<" in qualname or module == "__main__":
            raise Unrebuildable(f"{what}, which another process cannot import")
        found = sys.modules.get(module)
        for part in qualname.split("."):
            found = getattr(found, part, None)
        if found is not obj:
            raise Unrebuildable(f"{what}, which is not found under that name")
        return f"{module}:{qualname}"

    def tensor(self, value, entry) -> dict:
        ms = self.ms
        dtype = str(value.dtype)
        host = value.astype(ms.float32) if dtype == "BFloat16" else value
        return {"tensor": self.array(host.asnumpy(), entry), "dtype": dtype}

    def array(self, array, entry, whole: bool = False) -> dict:
        """A stored array, or its statistics when it is over a bound; `whole` stores it or raises."""
        np = self.np
        described = {"shape": list(array.shape), "dtype": str(array.dtype)}
        if array.dtype == object:
            raise Unrebuildable("an array of Python objects")
        why = self.over(array.nbytes, entry, whole)
        if why is None:
            data = np.ascontiguousarray(array)
            name = hashlib.blake2b(data.tobytes() + repr(described).encode(), digest_size=16).hexdigest() + ".npy"
            if name not in self.stored:
                path = os.path.join(self.out, "arrays", name)
                with open(f"{path}.{os.getpid()}.tmp", "wb") as handle:  # processes of one command may share it
                    np.save(handle, data, allow_pickle=False)
                os.replace(handle.name, path)
                self.stored[name] = data.nbytes
                self.total += data.nbytes
                entry["stored_bytes"] += data.nbytes
            return described | {"file": name}
        if whole:
            raise Unrebuildable(why)
        return described | {"sampled": why, "stats": _stats(np, array)}

    def over(self, size: int, entry, whole: bool) -> str | None:
        mb = f"{size / 1e6:.1f} MB" if size >= 100_000 else f"{size} bytes"
        if not whole and size > self.max_array:
            return f"{mb}, over the {self.max_array / 1e6:g} MB kept of one array"
        if entry["stored_bytes"] + size > self.max_cell:
            return f"{mb} would take this class over its {self.max_cell / 1e6:g} MB"
        if self.total + size > self.max_total:
            return f"{mb} would take the recording over its {self.max_total / 1e6:g} MB"
        return None

    def parameters(self, cell, entry) -> tuple[dict | None, str | None]:
        named = list(cell.parameters_and_names())
        if not named:
            return {}, None
        size = sum(p.nbytes for _, p in named)
        why = self.over(size, entry, whole=True)
        if why is not None:
            return None, f"Parameters not recorded: {why}; the verifier builds them from the constructor"
        try:
            return {name: self.tensor(p, entry) for name, p in named}, None
        except Unrebuildable as exc:
            return None, f"Parameters not recorded: {exc}"

    def signature(self, value) -> str:
        """The structure of a call's inputs with shapes and dtypes: what makes two calls the same kind."""
        ms, np = self.ms, self.np
        if isinstance(value, ms.Tensor):
            return f"{str(value.dtype).lower()}[{','.join(map(str, value.shape))}]"
        if isinstance(value, np.ndarray):
            return f"ndarray {value.dtype}[{','.join(map(str, value.shape))}]"
        if isinstance(value, (tuple, list)):
            return "(" + ", ".join(self.signature(v) for v in value) + ")"
        if isinstance(value, dict):
            return "{" + ", ".join(f"{k}: {self.signature(v)}" for k, v in value.items()) + "}"
        if value is None:
            return "none"
        if isinstance(value, bool):
            return f"bool:{str(value).lower()}"
        if isinstance(value, (int, float)):
            return f"{type(value).__name__}:{value}"
        if isinstance(value, str):
            return repr(value)[:40]
        return type(value).__name__

    # -- the index -------------------------------------------------------------------------------

    def write(self) -> None:
        index = {
            "format": FORMAT,
            "pid": os.getpid(),
            "argv": sys.argv,
            "tree": self.roots,
            "mindspore": getattr(self.ms, "__version__", None),
            "forced_pynative": self.forced_pynative,
            "limits": {
                "max_samples": self.max_samples,
                "max_array_mb": self.max_array / 1e6,
                "max_cell_mb": self.max_cell / 1e6,
                "max_total_mb": self.max_total / 1e6,
            },  # fmt: skip
            "cells": self.cells,
        }
        path = os.path.join(self.out, f"cells-{os.getpid()}.json")
        with open(path + ".tmp", "w", encoding="utf-8") as handle:
            json.dump(index, handle, indent=1)
        os.replace(path + ".tmp", path)


def _parameters(cls) -> list[str]:
    """The names of `cls.__init__`'s positional parameters after self, to name an argument by."""
    import inspect

    try:
        found = inspect.signature(cls.__init__).parameters.values()
    except (TypeError, ValueError):
        return []
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return [p.name for p in found if p.kind in kinds][1:]


def _stats(np, array) -> dict:
    if array.size == 0:
        return {"min": 0, "max": 0, "mean": 0, "std": 0}
    values = array.astype(np.float64)
    finite = values[np.isfinite(values)]
    if finite.size == 0:
        return {"min": 0, "max": 0, "mean": 0, "std": 0}
    return {k: float(f(finite)) for k, f in (("min", np.min), ("max", np.max), ("mean", np.mean), ("std", np.std))}


def _stored_bytes(folder: str) -> int:
    try:
        return sum(e.stat().st_size for e in os.scandir(folder))
    except OSError:
        return 0


class _Finder:
    """Waits for `import mindspore` to finish, then installs the recorder."""

    def __init__(self, recorder: Recorder):
        self.recorder = recorder

    def find_spec(self, name, path=None, target=None):
        if name != "mindspore":
            return None
        import importlib.machinery

        sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None:
            return spec
        loader, recorder = spec.loader, self.recorder
        exec_module = loader.exec_module

        def exec_and_record(module):
            exec_module(module)
            recorder.install(module)

        loader.exec_module = exec_and_record
        return spec


def _start() -> None:
    with open(os.environ["GRAPHMEND_RECORD"], encoding="utf-8") as handle:
        config = json.load(handle)
    os.makedirs(os.path.join(config["output"], "arrays"), exist_ok=True)
    sys.meta_path.insert(0, _Finder(Recorder(config)))


if os.environ.get("GRAPHMEND_RECORD"):
    _start()
_chain()
