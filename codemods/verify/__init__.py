"""graphmend verify: prove a rewrite right by running both versions of a Cell and comparing numbers.

The verifier is its own room: it knows nothing of libcst. It receives the original module file,
the rewritten source, a Cell name, how to build it and its input specs, and returns a verdict per
check and version. MindSpore is imported only in worker child processes (`worker.py`); this
process never imports it.

Library API (what `graphmend fix --verify` calls)::

    from graphmend.verify import verify, render_table, render_json

    report = verify(
        Path("examples/batch_renorm.py"),   # the original module file
        rewritten_source,                    # the rewritten module, as a string
        "GrowingClip",                       # the nn.Cell class in it
        {"num_features": 3},                 # keyword arguments of __init__ (JSON-able)
        ["float32[B,3,4,4]"],                # one spec per positional input (see specs.py)
        checks=None,                         # subset of CHECKS; None = all that apply
        python=None,                         # interpreter for the workers; None = sys.executable
        timeout=120.0,                       # seconds per job; a hang or crash fails that job only
        rtol=None, atol=None,                # None = by dtype: fp32 1e-5/1e-6, fp16 and bf16 1e-3
        train=False,                         # eval mode unless True
        inputs_from=None,                    # an .npz of recorded inputs instead of specs
        module=None,                         # dotted module name if the file's package is not
                                             # given by __init__.py files (namespace packages)
        rewritten_label=None,                # how error locations name the rewritten file
        memory_limit=None,                   # GB per worker; None = a quarter of the machine's
                                             # memory, 0 = no limit
    )
    report.passed            # every requested check passes *after*, with equal numbers
    render_table(report)     # rich table on the terminal
    render_json(report)      # the same content as a JSON string

Many Cells, one pair of workers (MindSpore imported once per version, not once per Cell)::

    from graphmend.verify import Request, verify_all

    reports = verify_all([Request(path, source, "GrowingClip", {"num_features": 3}, ["float32[B,3,4,4]"]),
                          Request(other, its_source, "Head", inputs=["float32[2,8]"])], timeout=120.0)

or a `Verifier` kept open across a run (`fix --verify` proves each file's Cells on the same workers)::

    with Verifier(timeout=120.0) as verifier:
        report = verifier.verify(Request(path, source, "GrowingClip", {"num_features": 3}, ["float32[2,3,4,4]"]))

`verify` raises `UsageError` for what the caller can fix (bad spec, unknown check, missing file,
an interpreter without MindSpore). Failures of user code are verdicts, never exceptions.

What a run does:
- Before any worker starts, the inputs and init arguments are checked against the signatures of the
  Cell's `construct` and `__init__` as its source spells them (cell_source.py, with `ast`): a spec that
  cannot fit fails at once with the signature. The CLI and `fix --verify` run eval and training mode
  when `construct` reads `self.training` (`Request.train` picks one; `Report.train` says which ran).
- Each version is imported under its real module name by its own worker: the original from the
  user's tree, the rewritten one from a symlink mirror of its package in a temp directory
  (staging.py). Workers run in a temp cwd, so MindSpore's rank_0/ dumps never land in the user's
  tree, and write no bytecode.
- Reference: the original in PyNative, two calls of a fresh instance built under a fixed seed:
  outputs and every Parameter after each call. If the original fails in PyNative, the rewritten
  version in PyNative is the reference, and the report says so. When a check's values differ from
  it, a second PyNative instance with the same Parameters is called under another seed (once per
  reference, kept for the other checks): if its outputs change, the Cell draws random numbers, and
  only shapes and dtypes are compared ("values not compared: random"); a training Dropout counts as
  random without that call. A random draw that repeats across calls where PyNative draws anew
  (frozen into the graph) still fails.
- Checks (CHECKS), each on a fresh instance with the reference's starting Parameters, called twice
  with the same inputs so state leaking between calls shows as a wrong second call:
  graph (GRAPH_MODE, default syntax level), strict (jit_syntax_level=STRICT), dynamic (named
  dimensions set to None with set_inputs; calls at the given size, then one larger), export
  (ms.export MINDIR under STRICT, loaded back into nn.GraphCell).
- Comparison: outputs flattened through tuples, lists and dicts; shape and dtype exact; values by
  allclose, NaN/Inf positions equal; max abs and max rel error per output and Parameter.
- Isolation: one worker per version imports MindSpore once and runs its jobs one by one over a
  pipe (JSON lines). A job that crashes, exceeds the timeout or goes over the memory limit
  (resident memory, polled from /proc) kills the worker and everything it started (on Linux,
  through its keeper process, see process.py) and fails with the reason (and the user's line,
  from faulthandler); a fresh worker takes the remaining jobs.
- Output: what user code and MindSpore print never reaches the protocol or the terminal. The
  parent drains it and keeps only its two ends; a check that printed over 1 MB says so in its
  note ("printed 30.0 MB (not shown)").
"""

from .api import Request, UsageError, Verifier, verify, verify_all
from .report import CHECKS, Report, Verdict, render_json, render_table

__all__ = [
    "CHECKS",
    "Report",
    "Request",
    "UsageError",
    "Verdict",
    "Verifier",
    "render_json",
    "render_table",
    "verify",
    "verify_all",
]
