"""Child process: a Cell's original and its rewrites, each run in PyNative, compared with the original.

The verifier runs a rewritten version in PyNative only when the original fails there (issue 15), so
this is the harness's minimum for "does a fix change PyNative's numbers": one process imports
MindSpore once and, for each version in turn (the original first), imports the Cell's module afresh
(its package dropped from sys.modules and sys.path pointed at that version, as staged by
codemods/verify/staging.py), builds it with the original's starting Parameters and calls it twice
with the verifier's inputs. It reuses the verifier's worker (building, calling, comparing); run.py
starts it and reads one JSON object from its stdout.

    python pynative.py CONFIG.json
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "codemods", "verify"))

import worker  # noqa: E402  (codemods/verify/worker.py, imported as a module: it imports MindSpore)

BASE_PATH = list(sys.path)


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as handle:
        config = json.load(handle)
    worker.ms.set_context(mode=worker.ms.PYNATIVE_MODE)
    results, reference, params = {}, None, None
    for version in config["versions"]:
        _forget(version["module"].split(".")[0])
        run = worker.Worker(config["common"] | version | {"fallback_path": os.getcwd()})
        try:
            net = run.build(params)
            params = params or worker.snapshot_params(net)
            calls = run.call_sequence(net, [0, 0])
        except worker.JobError as failure:
            error = run.describe(failure.__cause__)
            results[version["label"]] = {"status": "fail", "stage": failure.stage, "error": error}
            continue
        if reference is None:
            reference = {"calls": calls, "random": False}
            results[version["label"]] = {"status": "pass", "items": []}
            continue
        items = [i for i in worker.compare_calls(reference, calls, run.tols) if not i["ok"]]
        results[version["label"]] = {"status": "fail" if items else "pass", "items": items[:3]}
    sys.stdout.write(json.dumps(results, default=str) + "\n")
    sys.stdout.flush()
    os._exit(0)  # interpreter teardown after MindSpore takes seconds


def _forget(package: str) -> None:
    for name in [n for n in sys.modules if n == package or n.startswith(package + ".")]:
        del sys.modules[name]
    sys.path[:] = BASE_PATH


if __name__ == "__main__":
    main()
