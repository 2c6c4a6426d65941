"""The wheels the real Cells come from: seven public MindSpore packages at pinned versions.

`pip download --no-deps` fetches each wheel into bench/realcells/wheels/ (git-ignored), its sha256 is
checked, and it is unzipped into bench/realcells/src/<name>/ (git-ignored): the package root a Cell's
module is imported from (`bench/realcells/src/mindcv` holds `mindcv/models/...`). Source from the wheels
is never committed.

A package's top-level `__init__.py` (and its `models/` aggregator) imports every submodule, and so
every third-party library any of them needs (tqdm, cv2, omegaconf, transformers...), none of which
the verifier needs. `fetch` empties those aggregator files (BLANKED; the wheel's text is kept next to
each as `__init__.py.wheel`), so a Cell's module imports only what it imports itself. Besides, one
line of two mindnlp files is changed so that they import on MindSpore 2.10 (PATCHED), and mindnlp's
own requirements are installed into bench/realcells/site/ (SITE_REQUIREMENTS). Nothing else of the
wheels is changed. The six packages of bench/corpus.py at the same versions, plus mindnlp 0.3.1: the
last release whose models are `nn.Cell`s (0.4 and later build on their own torch-like `Module`).

    .venv/bin/python bench/realcells/fetch.py
"""

from __future__ import annotations

import subprocess
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
    for path, (old, new) in PATCHED.items():
        _patch(SRC / path, old, new)
    _site()
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
    "mindnlp/mindnlp/transformers/__init__.py",  # every model and its tokenizer (sentencepiece, jieba...)
    "mindnlp/mindnlp/transformers/models/__init__.py",
    "mindformers/mindformers/__init__.py",
    "mindone/mindone/__init__.py",
    "mindone/mindone/diffusers/models/unets/__init__.py",
)


# mindnlp 0.3.1 was written for MindSpore 2.2/2.3: on 2.10 `mindspore._c_expression.Tensor` is `TensorPy`, and
# every modeling_*.py imports modeling_utils, which imports it (so does injection.py). The one line each, so that
# its Cells import at all (none of the measured Cells uses `Tensor_`); the wheel's text is kept as `<file>.wheel`.
_TENSOR_PY = (
    "from mindspore._c_expression import Tensor as Tensor_",
    "from mindspore._c_expression import TensorPy as Tensor_",
)
PATCHED = {
    "mindnlp/mindnlp/transformers/modeling_utils.py": _TENSOR_PY,
    "mindnlp/mindnlp/injection.py": _TENSOR_PY,
}

# what mindnlp's modules import at their top (its declared requirements), at versions that install beside the
# verifier's numpy<2 (ml-dtypes 0.5 needs numpy 2) and the pytest mindnlp pins (mindnlp.utils imports
# `_pytest.doctest.import_path`, gone from later pytest). `pip install --target` puts them in bench/realcells/site/
# (git-ignored), which run.py puts first on the PYTHONPATH of its MindSpore workers only: the project's own venv
# (and its pytest) is not touched. Importing mindnlp's modeling code applies its `injection` patches to MindSpore's
# Tensor and ops in that worker, as in every mindnlp program: the original and the rewrite alike.
SITE = HERE / "site"
SITE_REQUIREMENTS = (
    "requests==2.34.2",
    "regex==2026.11.19",
    "sentencepiece==0.2.3",
    "tokenizers==0.19.1",
    "jieba==0.42.1",
    "ml-dtypes==0.4.1",
    "pytest==7.2.0",
    "addict==2.4.0",
)


def _site() -> None:
    stamp = SITE / ".requirements"
    wanted = "\n".join(SITE_REQUIREMENTS)
    if stamp.is_file() and stamp.read_text(encoding="utf-8") == wanted:
        return
    command = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(SITE), "--upgrade"]
    command += [*SITE_REQUIREMENTS, *_SITE_DEPENDENCIES]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise corpus.CorpusError(f"pip could not install mindnlp's requirements into {SITE}: {done.stderr[-2000:]}")
    stamp.write_text(wanted, encoding="utf-8")


# what those need in turn (--no-deps: nothing else, and nothing that would replace the venv's numpy)
_SITE_DEPENDENCIES = (
    "urllib3==2.8.0",
    "idna==3.20",
    "certifi==2026.10.19.post1",
    "charset-normalizer==3.5.3",
    "iniconfig==2.3.1",
    "pluggy==1.7.0",
    "attrs==26.1.0",
    "packaging==26.4",
)


def _patch(path: Path, old: str, new: str) -> None:
    kept = path.with_name(path.name + ".wheel")
    if not kept.is_file():
        kept.write_bytes(path.read_bytes())
    text = kept.read_text(encoding="utf-8")
    if old not in text:
        raise corpus.CorpusError(f"{path}: the line to patch is not there: {old!r}")
    path.write_text(text.replace(old, new), encoding="utf-8")


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
