"""The optional compiled search (docs/analysis.md, "Speed"): ``make compile-engine`` compiles
the search's modules (``SOURCES``: ``analysis.py`` and the two it calls at every node) with
mypyc into extension modules next to them, which Python then imports instead of the sources;
``make clean-engine`` removes them. Without them the pure-Python modules run: nothing else needs
a compiler.

The extensions are built from the sources as they were: a stamp (each source's SHA-256) is
written with them, and ``stale()`` says when a source has changed since (the tests fail then:
recompile or clean).

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
# the search and the masks it computes at every node, compiled together (one mypyc group: their
# calls to each other are C calls); the rest of the engine stays interpreted
SOURCES = ("analysis.py", "masks.py", "takes_all.py")
STAMP = ENGINE / "compiled.sha256"
GROUP = "games.engine.search"  # mypyc's group: its runtime library is games/engine/search__mypyc


def extensions(root: Path = ROOT) -> list[Path]:
    """The compiled files in the engine's directory (mypyc's module and its runtime library)."""
    engine = root / "games" / "engine"
    return sorted(p for p in engine.iterdir() if p.name.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)))


def digest(root: Path = ROOT) -> str:
    engine = root / "games" / "engine"
    return "".join(f"{hashlib.sha256((engine / name).read_bytes()).hexdigest()}  {name}\n" for name in SOURCES)


def stale() -> bool:
    """Extensions are present but were built from other sources than the ones here."""
    return bool(extensions()) and (not STAMP.exists() or STAMP.read_text() != digest())


def clean(root: Path = ROOT) -> None:
    for path in extensions(root):
        path.unlink()
    (root / "games" / "engine" / STAMP.name).unlink(missing_ok=True)


def build(root: Path = ROOT) -> None:
    """mypyc (the ``compile`` extra, or ``dev``) and a C compiler; ``root``: the checkout (or a
    copy of its ``games/engine``, as tests/engine compiles one)."""
    clean(root)
    work = root / "build"  # mypyc's C sources and objects (mypycify always puts them there)
    existed = work.exists()
    work.mkdir(exist_ok=True)
    paths = [f"games/engine/{name}" for name in SOURCES]
    # What the mypyc command writes and runs, with a group name of our own: its shared library is
    # then games/engine/search__mypyc (for several modules mypyc would name it by a hash, at the
    # root). follow-imports=silent: the modules imported are type-checked only as far as the
    # search needs.
    setup = work / "setup_search.py"
    setup.write_text(
        "from setuptools import setup\n"
        "from mypyc.build import mypycify\n"
        f"setup(name='kierki_search', ext_modules=mypycify({['--follow-imports=silent', *paths]!r},"
        f" opt_level='3', group_name={GROUP!r}))\n"
    )
    subprocess.run([sys.executable, str(setup), "build_ext", "--inplace"], cwd=root, check=True)
    if not existed:
        shutil.rmtree(work)
    (root / "games" / "engine" / STAMP.name).write_text(digest(root))


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
