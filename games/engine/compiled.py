"""The optional compiled search (docs/analysis.md, "Speed"): ``make compile-engine`` compiles
``analysis.py`` with mypyc into an extension module next to it, which Python then imports instead
of the source; ``make clean-engine`` removes it. Without it the pure-Python module runs: nothing
else needs a compiler.

An extension is built from the source as it was: a stamp (the source's SHA-256) is written with
it, and ``stale()`` says when the source has changed since (the tests fail then: recompile or
clean).

    python -m games.engine.compiled build|clean|status
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import shutil
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parent
ROOT = ENGINE.parent.parent
SOURCES = ("analysis.py",)  # the search; the rest of the engine stays interpreted
STAMP = ENGINE / "compiled.sha256"


def extensions() -> list[Path]:
    """The compiled files in the engine's directory (mypyc's module and its runtime library)."""
    return sorted(p for p in ENGINE.iterdir() if p.name.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)))


def digest() -> str:
    return "".join(f"{hashlib.sha256((ENGINE / name).read_bytes()).hexdigest()}  {name}\n" for name in SOURCES)


def stale() -> bool:
    """Extensions are present but were built from other sources than the ones here."""
    return bool(extensions()) and (not STAMP.exists() or STAMP.read_text() != digest())


def clean() -> None:
    for path in extensions():
        path.unlink()
    STAMP.unlink(missing_ok=True)


def build() -> None:
    """mypyc (from the ``compile`` extra: ``pip install -e '.[compile]'``) and a C compiler."""
    clean()
    work = ROOT / "build"  # mypyc's C sources and objects (its command line always puts them there)
    existed = work.exists()
    paths = [str((ENGINE / name).relative_to(ROOT)) for name in SOURCES]
    # follow-imports=silent: the modules imported are type-checked only as far as the search needs
    subprocess.run([sys.executable, "-m", "mypyc", "--follow-imports=silent", *paths], cwd=ROOT, check=True)
    if not existed:
        shutil.rmtree(work)
    STAMP.write_text(digest())


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "status"
    if command == "build":
        build()
    elif command == "clean":
        clean()
    elif command != "status":
        print(__doc__)
        return 2
    names = ", ".join(p.name for p in extensions()) or "none (pure Python)"
    print(f"compiled engine: {names}" + ("; STALE: the source changed since, rebuild or clean" if stale() else ""))
    return 1 if stale() else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
