"""The wheels the real Cells come from: seven public MindSpore packages at pinned versions.

`pip download --no-deps` fetches each wheel into bench/realcells/wheels/ (git-ignored), its sha256 is
checked, and it is unzipped into bench/realcells/src/<name>/ (git-ignored): the package root a Cell's
module is imported from (`bench/realcells/src/mindcv` holds `mindcv/models/...`). Source from the wheels
is never committed.

A package's top-level `__init__.py` (and its `models/` aggregator) imports every submodule, and so
every third-party library any of them needs (tqdm, cv2, omegaconf, transformers...), none of which
the verifier needs. `fetch` empties those aggregator files (BLANKED; the wheel's text is kept next to
each as `__init__.py.wheel`), so a Cell's module imports only what it imports itself. Nothing else
of the wheels is changed. The six packages of bench/corpus.py at the same versions, plus mindnlp 0.3.1: the
last release whose models are `nn.Cell`s (0.4 and later build on their own torch-like `Module`).

    .venv/bin/python bench/realcells/fetch.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.append(str(HERE.parent))  # after bench/realcells: bench/run.py must not shadow run.py

import corpus  # noqa: E402  (bench/corpus.py: the same download, check and unzip)

WHEELS = HERE / "wheels"
SRC = HERE / "src"
PACKAGES = corpus.PACKAGES | {
    "mindnlp": ("0.3.1", "face9ac03f4a8c7bf82124140e44bc744d98437ebfdaa7b4164aef232c57d666"),
}


def fetch() -> Path:
    """Download and unzip every package not there yet; returns bench/realcells/src."""
    for name, (version, sha256) in PACKAGES.items():
        if not (SRC / name / corpus._DONE).is_file():
            corpus._unzip(_wheel(name, version, sha256), SRC / name)
    for path in BLANKED:
        _blank(SRC / path)
    corpus._own_work_tree(SRC)  # graphmend skips git-ignored files: src/ is a work tree of its own
    return SRC


# package aggregators that import every submodule (see the module docstring)
BLANKED = (
    "mindcv/mindcv/__init__.py",
    "mindcv/mindcv/models/__init__.py",
    "mindcv/mindcv/loss/__init__.py",
    "mindocr/mindocr/__init__.py",
    "mindocr/mindocr/models/__init__.py",
    "mindocr/mindocr/losses/__init__.py",
    "mindocr/mindocr/utils/__init__.py",
    "mindocr/mindocr/models/heads/__init__.py",
    "mindocr/mindocr/models/utils/__init__.py",
    "mindocr/mindocr/models/backbones/__init__.py",
    "mindyolo/mindyolo/__init__.py",
    "mindyolo/mindyolo/models/__init__.py",
    "mindaudio/mindaudio/__init__.py",
    "mindaudio/mindaudio/models/__init__.py",
    "mindaudio/mindaudio/loss/__init__.py",
    "mindnlp/mindnlp/__init__.py",
    "mindformers/mindformers/__init__.py",
    "mindone/mindone/__init__.py",
    "mindone/mindone/diffusers/models/unets/__init__.py",
)


def _blank(init: Path) -> None:
    kept = init.with_name("__init__.py.wheel")
    if not kept.is_file():
        kept.write_bytes(init.read_bytes())
    init.write_text("# emptied by bench/realcells/fetch.py: the wheel's text is in __init__.py.wheel\n")


def fetched() -> bool:
    return all((SRC / name / corpus._DONE).is_file() for name in PACKAGES)


def _wheel(name: str, version: str, sha256: str) -> Path:
    # a wheel `make corpus-check` already fetched is reused (its sha256 is checked all the same)
    cached = corpus.WHEELS / f"{name}-{version}-py3-none-any.whl"
    if cached.is_file() and corpus._sha256(cached) == sha256:
        return cached
    return corpus.download(name, version, sha256, WHEELS)


def main() -> None:
    try:
        src = fetch()
    except corpus.CorpusError as exc:
        sys.exit(f"error: {exc}")
    for name, (version, _) in PACKAGES.items():
        print(f"{name:<12} {version:<7} {len(corpus.python_files(src / name)):>5} .py files")


if __name__ == "__main__":
    main()
