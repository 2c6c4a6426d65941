"""The corpus of `make bench` and `make corpus-check`: the sources of six public MindSpore packages.

`pip download --no-deps` fetches each pinned wheel into bench/corpus/wheels/ (git-ignored), its
sha256 is checked, and it is unzipped into bench/corpus/src/<name>/. Running it again does nothing
for a package already unzipped; a half-done unzip is never mistaken for a done one.

bench/corpus/ is made a git work tree of its own: the repository ignores bench/corpus/, and graphmend
skips git-ignored files, so without it graphmend would see no file at all. It is also the working
directory of every measured graphmend run, so their cache lands in bench/corpus/.graphmend_cache/.

    .venv/bin/python bench/corpus.py        # fetch and unzip, print what is there
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE / "corpus"
WHEELS = ROOT / "wheels"
SRC = ROOT / "src"

# what `pip download --no-deps NAME` gave on 2025-11-29, with the sha256 of each wheel
PACKAGES = {
    "mindone": ("0.5.0", "ebea916c3034d324f1f43d0e10cc526a0b73bc955ea93ce91fca039157c13b2c"),
    "mindformers": ("2.1.0", "8876d3c61eae7931b772b71417010e7ab7be0fafdb8dc18fa014e1759259728d"),
    "mindcv": ("0.3.0", "18152d727d1fad52197aebe0faa3b5024fdaf05fc20c19ae2864ce19045c2ee1"),
    "mindocr": ("0.5.0", "2d07326767dd3aa8b14eea2c9cf76e715f836cc549ba34f6f3f05c5465a74327"),
    "mindyolo": ("0.5.0", "17bf83dd360759950377c773f5ca13d73a78799038aa0244d0f18dd76b23e41e"),
    "mindaudio": ("0.3.0", "5e24f2f84f17be1588beaa65278c6b9c48c34277912060285de9c125de4cfa67"),
}
_DONE = ".unzipped"  # written last: its presence means the package is complete


class CorpusError(Exception):
    pass


def fetch() -> Path:
    """Download and unzip every package that is not there yet; returns bench/corpus/src."""
    for name, (version, sha256) in PACKAGES.items():
        if not (SRC / name / _DONE).is_file():
            _unzip(download(name, version, sha256), SRC / name)
    _own_work_tree()
    return SRC


def python_files(root: Path = SRC) -> list[Path]:
    """Every .py file under `root`, sorted (the files graphmend and libcst's runner both walk)."""
    return sorted(root.rglob("*.py"))


def download(name: str, version: str, sha256: str, wheels: Path = WHEELS) -> Path:
    wheel = wheels / f"{name}-{version}-py3-none-any.whl"
    if not (wheel.is_file() and _sha256(wheel) == sha256):
        wheels.mkdir(parents=True, exist_ok=True)
        command = [sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "--dest", str(wheels),
                   "--only-binary", ":all:", f"{name}=={version}"]  # fmt: skip
        if subprocess.run(command).returncode != 0:
            raise CorpusError(f"pip could not download {name}=={version}; is the package index reachable?")
    if not wheel.is_file():
        raise CorpusError(f"pip downloaded {name}=={version}, but not as {wheel.name}")
    found = _sha256(wheel)
    if found != sha256:
        raise CorpusError(f"{wheel}: sha256 {found}, expected {sha256}; delete it and run again")
    return wheel


def _unzip(wheel: Path, target: Path) -> None:
    partial = target.with_name(target.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    shutil.rmtree(target, ignore_errors=True)
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(partial)  # zipfile drops absolute paths and `..` from member names
    (partial / _DONE).write_text(f"{wheel.name}\n")
    partial.rename(target)


def _own_work_tree(root: Path = ROOT) -> None:
    if not (root / ".git").exists():
        subprocess.run(["git", "init", "--quiet", str(root)], check=True)


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def main() -> None:
    try:
        src = fetch()
    except CorpusError as exc:
        sys.exit(f"error: {exc}")
    for name, (version, _) in PACKAGES.items():
        print(f"{name:<12} {version:<7} {len(python_files(src / name)):>5} .py files")
    print(f"{len(python_files(src))} .py files in {src}")


if __name__ == "__main__":
    main()
