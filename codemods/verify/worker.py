"""The verify worker: the only code in graphmend that imports MindSpore.

Run as a script (`python worker.py PARENT_PID RUN_DIR STACK_FILE`) by the interpreter the user
picked; never imported by the parent, and it imports nothing from graphmend, so that interpreter
needs only MindSpore and numpy.

On Linux the process graphmend starts forks before anything else: the child is the worker, the
parent stays behind as its keeper. The keeper is a child subreaper (prctl), so every process user
code starts stays in the keeper's tree however it detaches (a new session, a double fork, an empty
environment). When the worker ends, however it ends, the keeper kills and reaps that whole tree and
exits the way the worker did. graphmend ends a worker, and asks for its stacks, by signalling the
keeper (SIGTERM, SIGUSR1), which alone may signal the worker's pid: it has not reaped it yet.
Without prctl there is no keeper; the worker is the process graphmend started.

MindSpore is imported once; jobs then arrive one JSON line at a time on stdin and each verdict
goes back as one JSON line. The worker's first line says who it is ({"pid", "keeper"}); the
parent's first line is the configuration of this worker's version.
The protocol keeps the original stdin and stdout on private descriptors: fd 1 joins fd 2, which
the parent drains and bounds, so user prints can neither corrupt nor stall the protocol.
faulthandler writes its stacks to STACK_FILE, apart from whatever user code prints.

Jobs:
  {"op": "reference"}      run the Cell in PyNative, save its calls and its starting Parameters
  {"op": "check", ...}     run one check (graph, strict, dynamic, export) and compare with the reference
  {"op": "load", "config"} the next Cell (`verify_all`): forget the modules of this one's tree and its
                           sys.path entries, then take the new configuration

The worker leaves when stdin closes; the parent usually has its keeper kill it first.

Every job builds a fresh instance: a compiled instance keeps its graph.
"""

import ctypes
import faulthandler
import functools
import importlib
import importlib.util
import json
import os
import pickle
import random
import re
import shutil
import signal
import sys
import threading
import time
import traceback

_HERE = os.path.dirname(os.path.abspath(__file__))
if sys.path and os.path.abspath(sys.path[0] or ".") == _HERE:
    sys.path.pop(0)  # graphmend's own modules must not shadow the user's


def _claim_stdio():
    """Keep the pipes for the protocol; whatever MindSpore or user code prints goes to fd 2."""
    proto_in = os.fdopen(os.dup(0), "r", encoding="utf-8")
    proto_out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(2, 1)
    return proto_in, proto_out


# -- the keeper ----------------------------------------------------------------------------------

PR_SET_CHILD_SUBREAPER = 36  # <linux/prctl.h>
END_WAIT = 10.0  # seconds the keeper spends killing what the worker left; a process it cannot kill stays
_ASKS = {signal.SIGTERM, signal.SIGUSR1}  # what graphmend sends the keeper


def _keep(parent: int, run_dir: str) -> int | None:
    """Fork: only the worker returns, with its keeper's pid (None: no keeper, this is the worker)."""
    if not _become_subreaper():
        return None
    keeper = os.getpid()
    signal.pthread_sigmask(signal.SIG_BLOCK, _ASKS)  # held until the keeper's handlers are in place
    worker = os.fork()
    if worker:
        Keeper(worker, parent, run_dir).run()
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _ASKS)
    return keeper


def _become_subreaper() -> bool:
    """Orphans below this process come back to it instead of going to init (Linux 3.4 and later)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_CHILD_SUBREAPER, ctypes.c_ulong(1), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


class Keeper:
    """The parent half of the fork: waits for the worker, then ends all it left and exits as it did."""

    def __init__(self, worker: int, parent: int, run_dir: str):
        self.worker, self.parent, self.run_dir = worker, parent, run_dir

    def run(self) -> None:
        """Never returns."""
        _detach_stdio()
        signal.signal(signal.SIGTERM, lambda *_: _signal(self.worker, signal.SIGKILL))
        signal.signal(signal.SIGUSR1, lambda *_: _signal(self.worker, signal.SIGUSR1))  # its stacks
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _ASKS)
        threading.Thread(target=self.watch, daemon=True).start()
        status = self.wait()
        _end_tree(os.getpid())
        if os.getppid() != self.parent:
            shutil.rmtree(self.run_dir, ignore_errors=True)  # a killed graphmend could not remove it
        _exit_like(status)

    def wait(self) -> int:
        """The worker's exit status; meanwhile reap the orphans that die under the keeper."""
        while (info := os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOWAIT)).si_pid != self.worker:
            os.waitpid(info.si_pid, 0)
        for asked in _ASKS:  # the worker is dead but unreaped: no handler may signal its pid once it is free
            signal.signal(asked, signal.SIG_IGN)
        return os.waitpid(self.worker, 0)[1]

    def watch(self) -> None:
        """graphmend is gone (killed): end the worker now, and so everything."""
        while os.getppid() == self.parent:
            time.sleep(1.0)
        os.kill(os.getpid(), signal.SIGTERM)  # to the handler, which knows whether the worker still runs


def _detach_stdio() -> None:
    """Only the worker holds the pipes, so they close when it dies."""
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    os.close(devnull)


def _end_tree(root: int) -> None:
    """SIGKILL and reap every process under root; the orphans of killed ones come back to root."""
    deadline = time.monotonic() + END_WAIT
    while (left := _descendants(root)) and time.monotonic() < deadline:
        for pid in left:
            _signal(pid, signal.SIGKILL)
        _reap_children()
        time.sleep(0.005)  # let the killed exit before the next look


def _descendants(root: int) -> list[int]:
    """Every process below root, dead (unreaped) or alive, from the parent pids in /proc."""
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", "rb") as stat:
                    ppid = int(stat.read().rsplit(b")", 1)[1].split()[1])  # the name in () may hold anything
            except (OSError, ValueError, IndexError):  # gone meanwhile
                continue
            children.setdefault(ppid, []).append(int(name))
    found, todo = [], [root]
    while todo:
        below = children.get(todo.pop(), [])
        found += below
        todo += below
    return found


def _reap_children() -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _exit_like(status: int) -> None:
    """Exit with the worker's code, or die of its signal, so that graphmend names the right one."""
    code = os.waitstatus_to_exitcode(status)
    if code < 0:
        import resource  # Unix only, like the keeper

        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # the worker's crash, not a core of the keeper
        signal.signal(-code, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {-code})
        os.kill(os.getpid(), -code)
    os._exit(code if code >= 0 else 1)


def _signal(pid: int, signum: int) -> None:
    try:
        os.kill(pid, signum)
    except (ProcessLookupError, PermissionError):  # gone, or not ours to kill (a setuid program)
        pass


if __name__ == "__main__":
    KEEPER = _keep(int(sys.argv[1]), sys.argv[2])
    PROTO_IN, PROTO_OUT = _claim_stdio()
    PROTO_OUT.write(json.dumps({"pid": os.getpid(), "keeper": KEEPER is not None}) + "\n")
    PROTO_OUT.flush()
    STACKS = open(sys.argv[3], "w")  # kept open: faulthandler writes to it until the worker dies
    faulthandler.enable(STACKS)  # a segfault in user code leaves a Python stack
    faulthandler.register(signal.SIGUSR1, STACKS)  # the parent asks where a job hangs before killing it

_IMPORT_START = time.perf_counter()
import mindspore as ms  # noqa: E402
import numpy as np  # noqa: E402
from mindspore import nn  # noqa: E402

IMPORT_SECONDS = time.perf_counter() - _IMPORT_START
MS_DIR = os.path.dirname(ms.__file__)
DEFAULT_TOL = {
    "Float16": (1e-3, 1e-3),
    "BFloat16": (1e-3, 1e-3),
    "Float32": (1e-5, 1e-6),
    "Float64": (1e-5, 1e-6),
}
LOCATION = re.compile(r"In file (.+?):(\d+)")


def main() -> None:
    _die_with_parent()
    config = json.loads(PROTO_IN.readline())
    _warm_up()
    worker = Worker(config)
    _send({"ready": True, "import_s": IMPORT_SECONDS, "mindspore": ms.__version__, "numpy": np.__version__})
    for line in PROTO_IN:
        _send(worker.run(json.loads(line)))
    PROTO_OUT.flush()
    sys.stderr.flush()
    os._exit(0)  # interpreter teardown after MindSpore takes seconds


def _die_with_parent() -> None:
    """Nothing kills the worker if what started it dies: its keeper, or graphmend when there is none."""
    parent = KEEPER or int(sys.argv[1])  # the parent may be gone before this runs

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        if KEEPER is None:  # graphmend is gone; a keeper, when there is one, cleans up after graphmend
            shutil.rmtree(sys.argv[2], ignore_errors=True)  # a killed parent could not remove it
        os.killpg(0, signal.SIGKILL)  # the worker and whatever user code started in its group

    threading.Thread(target=watch, daemon=True).start()


def _send(message: dict) -> None:
    PROTO_OUT.write(json.dumps(message) + "\n")
    PROTO_OUT.flush()


def _warm_up() -> None:
    # PyNative on CPU launches ops asynchronously by default; synchronous launching gives the same
    # numbers and, measured on mindcv's coat_lite_tiny (MindSpore 2.10, 2 cores), a forward pass in
    # 0.7 s instead of 2.0 s alone and 1.0 s instead of 3.4 s with the other worker beside it.
    ms.set_context(mode=ms.PYNATIVE_MODE, pynative_synchronize=True)
    # Two workers share the machine, each with MindSpore's default of 25 CPU kernel threads. With
    # half the cores each, measured on the same model with both workers compiling side by side
    # (2 cores, three pairs): the two compiles summed 24.5 s instead of 27.5 s. Both versions and
    # the reference run under the same setting, so what is compared does not change.
    from mindspore.device_context.cpu import op_tuning

    op_tuning.threads_num(max(2, len(os.sched_getaffinity(0)) // 2))
    # Under numpy 2 the first numpy-backed op of a process raises once.
    try:
        ms.Tensor(np.ones((2, 2), np.float32)).mean((0, 1))
    except SystemError:
        pass


class JobError(Exception):
    """A failure at a named stage of a job; the cause carries the user's exception."""

    def __init__(self, stage: str, seconds: float | None = None):
        super().__init__(stage)
        self.stage = stage
        self.seconds = seconds  # how long a compiling stage ran before it failed


class Worker:
    def __init__(self, config: dict):
        self.config = config
        self.seed = config["seed"]
        self.roots = [os.path.abspath(p) for p in config["user_roots"]]
        rtol, atol = config["rtol"], config["atol"]
        self.tols = {d: (_pick(rtol, r), _pick(atol, a)) for d, (r, a) in DEFAULT_TOL.items()}
        sys.path[:0] = config["sys_path"]
        sys.path.append(config["fallback_path"])
        self.recorded = config.get("recorded")  # a sample of `graphmend record`: how to build and call
        self._cell_class = None

    def load(self, config: dict) -> None:
        """Take the next Cell's configuration. Every module imported from this one's tree is forgotten
        (the next tree may hold a module of the same name), and so are its sys.path entries."""
        for name, module in list(sys.modules.items()):
            places = [getattr(module, "__file__", None), *(getattr(module, "__path__", None) or ())]
            if any(isinstance(p, str) and self.is_user_file(p) for p in places):
                del sys.modules[name]
        for entry in [*self.config["sys_path"], self.config["fallback_path"]]:
            if entry in sys.path:
                sys.path.remove(entry)
        importlib.invalidate_caches()
        self.__init__(config)

    def run(self, job: dict) -> dict:
        try:
            if job["op"] == "load":
                self.load(job["config"])
                return {"status": "pass"}
            if job["op"] == "reference":
                return self.reference(job)
            return self.check(job)
        except JobError as failure:
            error = self.describe(failure.__cause__)
            return {"status": "fail", "stage": failure.stage, "error": error, "compile_s": failure.seconds}
        except Exception as exc:  # a bug of the verifier must not read as a verdict on the user's code
            return {"status": "fail", "stage": "verifier", "error": self.describe(exc)}

    # -- jobs ---------------------------------------------------------------------------------

    def reference(self, job: dict) -> dict:
        """PyNative calls of a fresh instance. Whether its values are random is known at once for a
        training Dropout; otherwise a check finds out only if its values differ (`random`)."""
        ms.set_context(mode=ms.PYNATIVE_MODE)
        net = self.build(None)
        params0 = snapshot_params(net)
        _dump(job["params_out"], params0)  # the checks need them even if the calls fail
        calls = self.call_sequence(net, job["sizes"])
        # a training Dropout is random even when another seed happens to draw the same few mask entries
        is_random = True if _drops_out(net) else None
        _dump(job["reference_out"], {"calls": calls, "random": is_random, "params": job["params_out"]})
        return {"status": "pass", "random": is_random}

    def random(self, reference: dict, reference_in: str) -> bool:
        """Whether the reference's first call gives other outputs under another seed: a second PyNative
        instance, built from the reference's starting Parameters. Asked only by a check whose values
        differ (saving the reference a build and a call, ~1 s on a mid-sized model); the answer is kept
        beside the reference for the other checks."""
        known = reference_in + ".random"
        if os.path.exists(known):
            return _load(known)
        ms.set_context(mode=ms.PYNATIVE_MODE)
        rng_net = self.build(_load(reference["params"]), seed=self.seed + 1)  # a Dropout takes its seed when built
        ms.set_seed(self.seed + 1)
        redrawn = self.call(rng_net, 0, stage="call under another seed")
        answer = not same_values(reference["calls"][0]["outputs"], redrawn["outputs"])
        partial = f"{known}.{os.getpid()}"
        _dump(partial, answer)
        os.replace(partial, known)  # the other worker may ask at the same time: whole files only
        return answer

    def check(self, job: dict) -> dict:
        check = job["check"]
        level = ms.STRICT if check in ("strict", "export") else ms.LAX
        ms.set_context(mode=ms.GRAPH_MODE, jit_syntax_level=level)
        net = self.build(_load(job["params_in"]) if job["params_in"] else None)
        if check == "dynamic":
            self.free_dimensions(net)
        if check == "export":
            net, export_s = self.export(net, job["export_to"])
        else:
            export_s = 0.0
        calls = self.call_sequence(net, job["sizes"])
        verdict = {"compile_s": export_s + calls[0]["seconds"], "run_s": calls[1]["seconds"]}
        if job["reference_in"] is None:
            return verdict | {
                "status": "fail",
                "items": [],
                "note": "ran; there is no reference to compare with",
            }
        reference = _load(job["reference_in"])
        items = compare_calls(reference, calls, self.tols)
        if reference["random"] is None and not all(item["ok"] for item in items):
            reference["random"] = self.random(reference, job["reference_in"])
            if reference["random"]:
                items = compare_calls(reference, calls, self.tols)
        status = "pass" if all(item["ok"] for item in items) else "fail"
        values_compared = not reference["random"]
        return verdict | {
            "status": status,
            "items": items,
            "values_compared": values_compared,
            "random": reference["random"],
        }

    # -- building and calling ------------------------------------------------------------------

    def cell_class(self):
        if self._cell_class is None:
            try:
                module = import_module(
                    self.config["module"], self.config.get("module_file"), self.config.get("package", "")
                )
            except BaseException as exc:
                raise JobError("import") from exc
            cls = getattr(module, self.config["cell"], None)
            if not (isinstance(cls, type) and issubclass(cls, nn.Cell)):
                found = "not found" if cls is None else f"a {type(cls).__name__}, not an nn.Cell"
                message = f"{self.config['cell']} in {self.config['module']} is {found}"
                raise JobError("import") from LookupError(message)
            self._cell_class = cls
        return self._cell_class

    def build(self, params: dict | None, seed: int | None = None):
        """A fresh instance under the seed (or `seed`), with the reference's starting Parameters if given."""
        cls = self.cell_class()
        ms.set_seed(self.seed if seed is None else seed)
        random.seed(self.seed if seed is None else seed)
        try:
            net = self.construct_cell(cls)
            if params is not None:
                load_params(net, params)
            elif self.recorded and self.recorded["sample"]["params"]:
                load_recorded(net, self.recorded["sample"]["params"], self.recorded["dir"])
            net.set_train(self.config["train"])
        except BaseException as exc:
            raise JobError("build") from exc
        return net

    def construct_cell(self, cls):
        if self.recorded is None:
            return cls(**{name: init_value(value) for name, value in self.config["init"].items()})
        rng = np.random.default_rng(self.seed)
        args, kwargs = decode_call(self.recorded["sample"]["init"], self.recorded["dir"], rng)
        return cls(*args, **kwargs)

    def export(self, net, path: str):
        start = time.perf_counter()
        try:
            ms.export(net, *self.inputs(0), file_name=path, file_format="MINDIR")
        except BaseException as exc:
            raise JobError("export", time.perf_counter() - start) from exc
        try:
            paths = {param.name: name for name, param in net.parameters_and_names()}
            loaded = Exported(nn.GraphCell(ms.load(path + ".mindir")), paths, net)
        except BaseException as exc:
            raise JobError("load exported MindIR") from exc
        return loaded, time.perf_counter() - start

    def call_sequence(self, net, sizes: list[int]) -> list[dict]:
        ms.set_seed(self.seed)
        return [self.call(net, grow, f"call {i + 1}") for i, grow in enumerate(sizes)]

    def call(self, net, grow: int, stage: str) -> dict:
        inputs, keywords = self.call_inputs(grow)
        start = time.perf_counter()
        try:
            out = net(*inputs, **keywords)
            outputs = flatten(out, "out")
        except BaseException as exc:
            raise JobError(stage, time.perf_counter() - start if stage == "call 1" else None) from exc
        seconds = time.perf_counter() - start
        label = stage + self.grown(grow)
        return {
            "outputs": outputs,
            "params": snapshot_params(net),
            "seconds": seconds,
            "grow": grow,
            "label": label,
        }

    # -- inputs ------------------------------------------------------------------------------

    def inputs(self, grow: int) -> list:
        return self.call_inputs(grow)[0]

    def call_inputs(self, grow: int) -> tuple[list, dict]:
        """Fresh input objects for one call; `grow` adds to every named dimension (of a recording: 1 is
        its second call, of other sizes)."""
        if self.recorded:
            sample = self.recorded["partner"] if grow else self.recorded["sample"]
            return decode_call(sample, self.recorded["dir"], np.random.default_rng(self.seed + grow))
        return self.spec_inputs(grow), {}

    def spec_inputs(self, grow: int) -> list:
        if self.config["inputs_from"]:
            with np.load(self.config["inputs_from"]) as data:
                return [ms.Tensor(data[key]) for key in data.files]
        rng = np.random.default_rng(self.seed + grow)
        return [make_input(spec, grow, rng) for spec in self.config["inputs"]]

    def grown(self, grow: int) -> str:
        """Call labels name the sizes of a grown call: `call 3 (B=3)`."""
        if not grow:
            return ""
        if self.recorded:
            return " (the second recorded call)"
        named = {name: size + grow for spec in self.config["inputs"] for size, name in spec.get("dims", []) if name}
        return " (" + ", ".join(f"{name}={size}" for name, size in named.items()) + ")"

    def free_dimensions(self, net) -> None:
        try:
            if self.recorded:
                net.set_inputs(*_recorded_placeholders(self.call_inputs(0)[0], self.call_inputs(1)[0]))
            else:
                net.set_inputs(*[_placeholder(spec) for spec in self.config["inputs"]])
        except BaseException as exc:
            raise JobError("set_inputs") from exc

    # -- errors ------------------------------------------------------------------------------

    def describe(self, exc: BaseException) -> dict:
        """First line of the error and the user's source line MindSpore (or Python) blames."""
        text = str(exc).strip() or type(exc).__name__
        # the first line that says something: MindSpore opens some errors with a rule of dashes and a
        # "- Kernel select failed:" heading (GM507), which would name no error at all
        lines = [line.strip() for line in text.splitlines()]
        first = next((line for line in lines if _says_something(line)), lines[0])
        where = self.blame_compile(text) or self.blame_traceback(exc)
        return {"type": type(exc).__name__, "message": first, "where": where}

    def blame_compile(self, text: str) -> dict | None:
        matches = [(m[1], int(m[2])) for m in LOCATION.finditer(text)]
        user = [m for m in matches if self.is_user_file(m[0])]
        return _location(*(user or matches)[0]) if matches else None

    def blame_traceback(self, exc: BaseException) -> dict | None:
        frames = [f for f in traceback.extract_tb(exc.__traceback__) if self.is_user_file(f.filename)]
        return _location(frames[-1].filename, frames[-1].lineno) if frames else None

    def is_user_file(self, path: str) -> bool:
        path = os.path.abspath(path)
        if path.startswith(MS_DIR + os.sep):
            return False
        return any(path == root or path.startswith(root + os.sep) for root in self.roots)


def import_module(name: str, path: str | None, package: str = ""):
    """The module `name`. A file whose name is no identifier (`a-v0.3.1__X.py`) is loaded from `path`
    under a name that is one, in its `package` when it has one, and registered in sys.modules (MindSpore
    reads `construct`'s source through it)."""
    if path is None or all(part.isidentifier() for part in name.split(".")):
        return importlib.import_module(name)
    stem = os.path.splitext(os.path.basename(path))[0]
    safe = re.sub(r"\W", "_", stem)
    safe = safe if safe.isidentifier() else f"_{safe}"  # `3d-net` → `_3d_net`
    if package:
        importlib.import_module(package)  # its relative imports resolve against the package
        safe = f"{package}.{safe}"
    spec = importlib.util.spec_from_file_location(safe, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[safe] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[safe]
        raise
    return module


class Exported:
    """A loaded MindIR takes only the tensor inputs: export baked the Python scalars in. Its Parameters
    carry their `name`s; `paths` gives each the path it had in the exported instance.

    Export leaves out the Parameters the graph never reads (a buffer of another branch); running the MindIR
    cannot change them, so they are the exported instance's, as they were (else every Cell with an unused
    Parameter failed the export check: "param …: missing")."""

    def __init__(self, graph, paths: dict[str, str], instance):
        self.graph = graph
        self.paths = paths
        self.instance = instance

    def __call__(self, *inputs):
        return self.graph(*[x for x in inputs if isinstance(x, ms.Tensor)])

    def parameters_and_names(self):
        loaded = self.graph.parameters_dict()
        for name, param in loaded.items():
            yield self.paths.get(name, name), param
        for path, param in self.instance.parameters_and_names():
            if param.name not in loaded:
                yield path, param


# -- values --------------------------------------------------------------------------------------


def make_input(spec: dict, grow: int, rng):
    if "scalar" in spec:
        return spec["scalar"]
    shape = tuple(size + grow if name else size for size, name in spec["dims"])
    dtype = spec["dtype"]
    if dtype == "bool":
        values = rng.random(shape) < 0.5
    elif spec["low"] is not None and dtype.startswith(("int", "uint")):
        values = rng.integers(spec["low"], spec["high"], shape)
    elif spec["low"] is not None:
        values = rng.uniform(spec["low"], spec["high"], shape)
    else:
        values = rng.standard_normal(shape)
    host_dtype = "float32" if dtype == "bfloat16" else dtype
    return ms.Tensor(values.astype(host_dtype), dtype=getattr(ms, dtype))


def _says_something(line: str) -> bool:
    return bool(line) and set(line) != {"-"} and not (line.startswith("- ") and line.endswith(":"))


def _placeholder(spec: dict):
    if "scalar" in spec:
        return spec["scalar"]
    shape = [None if name else size for size, name in spec["dims"]]
    return ms.Tensor(shape=shape, dtype=getattr(ms, spec["dtype"]))


def _recorded_placeholders(first: list, second: list) -> list:
    """Tensors without data for set_inputs: each dimension that differs between the two calls is free."""

    def free(a, b):
        if isinstance(a, ms.Tensor) and isinstance(b, ms.Tensor):
            shape = [x if x == y else None for x, y in zip(a.shape, b.shape, strict=True)]
            return ms.Tensor(shape=shape, dtype=a.dtype)
        if isinstance(a, (tuple, list)):
            return type(a)(free(x, y) for x, y in zip(a, b, strict=True))
        return a

    return [free(a, b) for a, b in zip(first, second, strict=True)]


# -- recorded values (graphmend record: record_site/sitecustomize.py writes them) ------------------------

_MSTYPES = {str(v): v for v in vars(ms.dtype).values() if isinstance(v, ms.dtype.Type)}


def decode(value: dict, folder: str, rng):
    """The value a recording wrote down: made again, arrays loaded (or drawn from their statistics)."""
    if "v" in value and len(value) == 1:
        return value["v"]
    if "float" in value:
        return float(value["float"])
    if "tuple" in value:
        return tuple(decode(v, folder, rng) for v in value["tuple"])
    if "list" in value:
        return [decode(v, folder, rng) for v in value["list"]]
    if "dict" in value:
        return {k: decode(v, folder, rng) for k, v in value["dict"]}
    if "tensor" in value:
        dtype = _MSTYPES[value["dtype"]]
        return ms.Tensor(recorded_array(value["tensor"], folder, rng), dtype=dtype)
    if "ndarray" in value:
        return recorded_array(value["ndarray"], folder, rng)
    if "npscalar" in value:
        return np.dtype(value["npscalar"]).type(value["v"])
    if "mstype" in value:
        return _MSTYPES[value["mstype"]]
    if "ref" in value:
        return _resolve(value["ref"])
    args, kwargs = decode_call(value, folder, rng)
    if "cell" in value:
        return _resolve(value["cell"])(*args, **kwargs)
    return functools.partial(decode(value["partial"], folder, rng), *args, **kwargs)


def decode_call(call: dict, folder: str, rng) -> tuple[list, dict]:
    """The positional and keyword arguments a recording wrote down for a call (or a constructor)."""
    args = [decode(a, folder, rng) for a in call["args"]]
    return args, {k: decode(v, folder, rng) for k, v in call["kwargs"].items()}


def recorded_array(described: dict, folder: str, rng):
    """A stored array, or a stand-in of its shape and dtype drawn within its recorded range."""
    if "file" in described:
        return np.load(os.path.join(folder, "arrays", described["file"]), allow_pickle=False)
    shape, dtype, stats = tuple(described["shape"]), np.dtype(described["dtype"]), described["stats"]
    if dtype == np.bool_:
        return rng.random(shape) < stats["mean"]
    if dtype.kind in "iu":
        return rng.integers(int(stats["min"]), int(stats["max"]) + 1, shape).astype(dtype)
    drawn = rng.normal(stats["mean"], stats["std"] or 1.0, shape)
    return np.clip(drawn, stats["min"], stats["max"]).astype(dtype)


def init_value(value):
    """An --init value made Python: `{"$ref": "module:name"}` is that object (a dtype, a class), and with
    `"kwargs"` what calling it with them returns (a config object: mindnlp's Cells take one); anything
    else is the JSON value, its lists and objects read the same way."""
    if isinstance(value, dict):
        if "$ref" in value and set(value) <= {"$ref", "kwargs"}:
            found = _resolve(value["$ref"])
            if "kwargs" not in value:
                return found
            return found(**{name: init_value(v) for name, v in value["kwargs"].items()})
        return {name: init_value(v) for name, v in value.items()}
    if isinstance(value, list):
        return [init_value(v) for v in value]
    return value


def _resolve(ref: str):
    module, _, qualname = ref.partition(":")
    found = importlib.import_module(module)
    for part in qualname.split("."):
        found = getattr(found, part)
    return found


def load_recorded(net, params: dict, folder: str) -> None:
    """The recorded Parameter values, by their names relative to the Cell."""
    rng = np.random.default_rng(0)
    for name, param in net.parameters_and_names():
        if name not in params:
            continue
        array = recorded_array(params[name]["tensor"], folder, rng)
        if tuple(array.shape) != tuple(param.shape):
            raise ValueError(f"Parameter {name} has shape {tuple(param.shape)} here, {array.shape} in the recording")
        param.set_data(ms.Tensor(array, dtype=param.dtype))


def flatten(value, name: str) -> list:
    """(name, value) pairs for every leaf of tuples, lists and dicts."""
    if isinstance(value, (tuple, list)):
        return [pair for i, v in enumerate(value) for pair in flatten(v, f"{name}[{i}]")]
    if isinstance(value, dict):
        return [pair for k, v in value.items() for pair in flatten(v, f"{name}[{k!r}]")]
    return [(name, leaf(value))]


def leaf(value) -> dict:
    if isinstance(value, ms.Tensor):
        dtype = str(value.dtype)
        host = value.astype(ms.float32) if dtype == "BFloat16" else value
        return {"dtype": dtype, "array": host.asnumpy().copy()}
    if isinstance(value, np.ndarray):
        return {"dtype": f"numpy {value.dtype}", "array": value.copy()}
    plain = value if isinstance(value, (bool, int, float, str, type(None))) else repr(value)
    return {"dtype": type(value).__name__, "scalar": plain}


def snapshot_params(net) -> dict:
    """Every Parameter by its path in the instance (`block.dense.weight`), not by its `name`: two Parameters
    given one `name=` are two here (GM614's original), and a fix that renames one still matches it."""
    return {name: leaf(param) for name, param in net.parameters_and_names()}


def load_params(net, saved: dict) -> None:
    """Give the instance the reference's starting values, matched by Parameter path."""
    for name, param in net.parameters_and_names():
        if name not in saved:
            continue
        array = saved[name]["array"]
        if tuple(array.shape) != tuple(param.shape):
            raise ValueError(f"Parameter {name} has shape {tuple(param.shape)} here, {array.shape} in the reference")
        param.set_data(ms.Tensor(array, dtype=param.dtype))


def _drops_out(net) -> bool:
    """A Dropout Cell of `net` (itself or inside) that is in training mode with a drop rate over 0."""
    kinds = tuple(getattr(nn, n) for n in ("Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "DropoutExt")
                  if hasattr(nn, n))  # fmt: skip
    for _, cell in net.cells_and_names():
        if isinstance(cell, kinds) and cell.training and (getattr(cell, "p", None) or 0) > 0:
            return True
    return False


def same_values(left: list, right: list) -> bool:
    return len(left) == len(right) and all(_identical(a, b) for (_, a), (_, b) in zip(left, right, strict=True))


def _identical(a: dict, b: dict) -> bool:
    if "array" in a and "array" in b:
        return a["array"].shape == b["array"].shape and np.array_equal(a["array"], b["array"], equal_nan=True)
    return a == b


# -- comparison ----------------------------------------------------------------------------------


def compare_calls(reference: dict, calls: list[dict], tols: dict) -> list[dict]:
    """One item per output and Parameter of every call; values skipped when the reference is random."""
    random_ref = reference["random"]
    items = []
    for ref, got in zip(reference["calls"], calls, strict=False):
        label = got["label"]
        items += _compare_leaves(label, ref["outputs"], got["outputs"], random_ref, tols)
        params = [(f"param {n}", v) for n, v in ref["params"].items()]
        got_params = dict((f"param {n}", v) for n, v in got["params"].items())
        items += _compare_leaves(label, params, [(n, got_params.get(n)) for n, _ in params], random_ref, tols)
    if random_ref:
        items += _frozen_random(reference["calls"], calls)
    return items


def _compare_leaves(label: str, ref: list, got: list, shapes_only: bool, tols: dict) -> list[dict]:
    items = []
    if len(ref) != len(got):
        names = ", ".join(n for n, _ in got) or "nothing"
        problem = f"{len(got)} outputs ({names}), the reference has {len(ref)}"
        return [_item(f"{label} outputs", problem)]
    for (name, want), (_, have) in zip(ref, got, strict=True):
        items.append(_compare_leaf(f"{label} {name}", want, have, shapes_only, tols))
    return items


def _compare_leaf(name: str, want: dict, have: dict | None, shapes_only: bool, tols: dict) -> dict:
    if have is None:
        return _item(name, "missing")
    if want["dtype"] != have["dtype"]:
        return _item(name, f"dtype {have['dtype']}, the reference has {want['dtype']}")
    if "scalar" in want:
        same = shapes_only or _scalar_close(want["scalar"], have["scalar"], tols.get("Float64"))
        return _item(name, None if same else f"{have['scalar']!r}, the reference has {want['scalar']!r}")
    a, b = have["array"], want["array"]
    if a.shape != b.shape:
        return _item(name, f"shape {a.shape}, the reference has {b.shape}")
    if shapes_only:
        return _item(name, None)
    return _compare_arrays(name, a, b, _tolerance(want["dtype"], b, tols))


def _compare_arrays(name: str, a, b, tol: tuple[float, float]) -> dict:
    if a.dtype == b.dtype and np.array_equal(a, b, equal_nan=a.dtype.kind in "fc"):
        return _item(name, None, 0.0, 0.0)  # most Parameters after an eval call: no float64 copies
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    if not (np.array_equal(np.isnan(a64), np.isnan(b64)) and np.array_equal(_inf_sign(a64), _inf_sign(b64))):
        return _item(name, "NaN/Inf at other positions than the reference")
    finite = np.isfinite(b64)
    diff = np.abs(a64[finite] - b64[finite])
    max_abs = float(diff.max()) if diff.size else 0.0
    scale = np.abs(b64[finite])
    rel = diff[scale > 0] / scale[scale > 0]
    max_rel = float(rel.max()) if rel.size else (0.0 if max_abs == 0 else float("inf"))
    close = bool(np.allclose(a64[finite], b64[finite], rtol=tol[0], atol=tol[1]))
    problem = None if close else f"values differ (max abs {max_abs:.3g}, max rel {max_rel:.3g})"
    return _item(name, problem, max_abs, max_rel)


def _frozen_random(reference: list[dict], calls: list[dict]) -> list[dict]:
    """A random draw baked into the graph repeats across calls where PyNative draws anew."""
    if len(reference) < 2 or len(calls) < 2 or reference[1]["grow"] or calls[1]["grow"]:
        return []
    ref_new = not same_values(reference[0]["outputs"], reference[1]["outputs"])
    if ref_new and same_values(calls[0]["outputs"], calls[1]["outputs"]):
        return [_item("call 2 outputs", "random values frozen: call 2 repeats call 1, PyNative draws new ones")]
    return []


def _tolerance(dtype: str, array, tols: dict) -> tuple[float, float]:
    """By MindSpore dtype; numpy outputs by their kind; integers and bools exactly."""
    if dtype in tols:
        return tols[dtype]
    if array.dtype.kind == "f":
        return tols["Float16" if array.dtype == np.float16 else "Float32"]
    return (0.0, 0.0)


def _inf_sign(a):
    return np.where(np.isinf(a), np.sign(a), 0)


def _scalar_close(want, have, tol) -> bool:
    if isinstance(want, float) and isinstance(have, float) and tol:
        return bool(np.isclose(have, want, rtol=tol[0], atol=tol[1], equal_nan=True))
    return want == have


def _item(name: str, problem: str | None, max_abs: float | None = None, max_rel: float | None = None) -> dict:
    return {"name": name, "ok": problem is None, "problem": problem, "max_abs": max_abs, "max_rel": max_rel}


# -- small helpers -------------------------------------------------------------------------------


def _location(path: str, line: int) -> dict:
    try:
        with open(path, encoding="utf-8") as source:
            code = source.read().splitlines()[line - 1].strip()
    except (OSError, IndexError, UnicodeDecodeError):
        code = ""
    return {"path": os.path.abspath(path), "line": line, "code": code}


def _pick(override, default):
    return default if override is None else override


def _dump(path: str, value) -> None:
    with open(path, "wb") as handle:
        pickle.dump(value, handle)


def _load(path: str):
    with open(path, "rb") as handle:
        return pickle.load(handle)


if __name__ == "__main__":
    main()
