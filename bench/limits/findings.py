"""The documented-limits family (GM601-GM614) on the six-package corpus: counts per rule and package, and
a fixed sample of findings to read by hand (docs/limits-corpus.md is what was read, and what was found).

Runs `graphmend check --select GM6,GM611 --target export --no-cache --format json` over bench/corpus/src
(bench/corpus.py fetches it; GM611 is off by default and named to be counted), or reads such a JSON file
with --json. The sample: per rule, `random.Random(SEED).sample` of its findings in file order, as many as
QUOTA says; each printed with ten lines before and five after.

    .venv/bin/python bench/limits/findings.py [--json FILE] [--sample]
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import corpus  # noqa: E402

GRAPHMEND = str(Path(sys.executable).parent / "graphmend")
SEED = 13
# 20 findings, spread over the rules that have any on the corpus (GM611 is off by default: not sampled)
QUOTA = {"GM603": 3, "GM604": 3, "GM605": 2, "GM606": 3, "GM607": 1, "GM609": 3, "GM610": 1, "GM612": 4}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="a `check --format json` output to read instead of running")
    parser.add_argument("--sample", action="store_true", help="print the sample with its code around it")
    args = parser.parse_args()
    findings = json.loads(args.json.read_text()) if args.json else _check()
    family = [f for f in findings if f["code"].startswith("GM6")]
    per_rule = Counter(f["code"] for f in family)
    per_package: dict[str, Counter] = defaultdict(Counter)
    for f in family:
        per_package[f["code"]][_package(f["filename"])] += 1
    print(f"{len(family)} findings of GM601-GM614 in {len({f['filename'] for f in family})} files")
    for code in sorted(per_rule):
        fixable = sum(1 for f in family if f["code"] == code and f.get("fix"))
        packages = ", ".join(f"{name} {n}" for name, n in per_package[code].most_common())
        print(f"  {code}  {per_rule[code]:4}  ({fixable} with a fix)  {packages}")
    if args.sample:
        _print_sample(family)


def _check() -> list[dict]:
    src = corpus.fetch()
    command = [GRAPHMEND, "check", "--select", "GM6,GM611", "--target", "export", "--no-cache", "--exit-zero",
               "--quiet", "--format", "json", str(src.relative_to(corpus.ROOT))]  # fmt: skip
    done = subprocess.run(command, cwd=corpus.ROOT, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(done.stderr[-3000:])
    return json.loads(done.stdout)


def _package(filename: str) -> str:
    parts = Path(filename).parts
    return parts[parts.index("src") + 1] if "src" in parts else parts[0]


def _print_sample(family: list[dict]) -> None:
    rng = random.Random(SEED)
    by_rule: dict[str, list[dict]] = defaultdict(list)
    for f in family:
        by_rule[f["code"]].append(f)
    number = 0
    for code, count in QUOTA.items():
        for f in rng.sample(by_rule[code], min(count, len(by_rule[code]))):
            number += 1
            row = f["location"]["row"]
            fix = f["fix"]["applicability"] if f.get("fix") else "report"
            print(f"\n=== #{number} {code} {f['filename']}:{row} ({fix})\n{f['message']}")
            lines = (corpus.ROOT / f["filename"]).read_text(encoding="utf-8", errors="replace").split("\n")
            for index in range(max(0, row - 11), min(len(lines), row + 5)):
                print(f"{index + 1:6}{'>' if index + 1 == row else ' '} {lines[index]}")


if __name__ == "__main__":
    main()
