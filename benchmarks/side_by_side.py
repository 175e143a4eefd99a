"""Run one benchmark on several versions of the code, alternating, and print them side by side.

    .venv/bin/python benchmarks/side_by_side.py --pairs 3 \\
        --variant before=72b9d10 --variant after=HEAD \\
        --variant no-fast-path=HEAD+benchmarks/patches/no-fast-path.diff \\
        -- eventsourcing_compare.py --database-url postgres://postgres@127.0.0.1:5432/kierki_x_bench --plays 2000

Each ``--variant NAME=REVISION[+PATCH]`` is the tree of that git revision (``git archive``) with
the patch applied, exported once to a temporary directory. Then ``--pairs`` rounds run the
benchmark script of ``benchmarks/`` (after ``--``, with its arguments) from each tree in turn —
A B C A B C … — so that a change of load on a shared machine hits every variant alike. Each run's
last line of output is its JSON; the table gives, per figure, every run and the median. The
benchmark's own dependencies must be importable (``PYTHONPATH`` passes through).

``--compile`` compiles each tree's search with mypyc first (``games.engine.compiled build`` in
the tree: each variant runs its own compiled search), for the analysis's benchmarks:

    .venv/bin/python benchmarks/side_by_side.py --pairs 3 --compile \\
        --variant before=HEAD~1 --variant after=HEAD \\
        -- analysis_nodes.py --deals 6 --levels 9 --nodes 5000000

``--compile NAME …`` compiles only the variants named, so one run puts the pure and the compiled
search of one revision side by side (how much the compiler buys):

    .venv/bin/python benchmarks/side_by_side.py --pairs 3 --compile compiled \\
        --variant pure=HEAD --variant compiled=HEAD \\
        -- analysis_nodes.py --deals 4 --levels 7 --nodes 1000000
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIGURES = (  # the figures worth comparing, from either benchmark's JSON
    "ratio",
    "kierki_plays_per_second",
    "eventsourcing_saves_per_second",
    "kierki_process_cpu_ms_per_play",
    "kierki_postgres_cpu_ms_per_play",
    "plays_per_second",
    "p99_ms",
    "ping_per_second",
    "gunicorn_cpu_ms_per_play",
    "postgres_cpu_ms_per_play",
    "search_cpu_s",  # analysis_nodes.py
    "nodes_searched",
)


def exported(revision: str, patch: str | None, into: Path) -> Path:
    """The tree of ``revision`` with ``patch`` applied, in a new directory under ``into``."""
    tree = Path(tempfile.mkdtemp(dir=into))
    archive = subprocess.run(["git", "archive", revision], cwd=ROOT, capture_output=True, check=True).stdout
    with tempfile.TemporaryFile() as file:
        file.write(archive)
        file.seek(0)
        tarfile.open(fileobj=file).extractall(tree, filter="data")
    if patch:
        subprocess.run(["git", "apply", str(ROOT / patch)], cwd=tree, check=True)
    return tree


def compile_search(tree: Path) -> None:
    """Compile ``tree``'s own search (mypyc, by the tree's own ``games/engine/compiled.py``) into the tree."""
    subprocess.run([sys.executable, "-m", "games.engine.compiled", "build"], cwd=tree, check=True, capture_output=True)


def run_once(tree: Path, script: list[str]) -> dict:
    """One run of the benchmark from ``tree``: its JSON, the load average added."""
    load = os.getloadavg()[0]
    command = [sys.executable, f"benchmarks/{script[0]}", *script[1:]]
    done = subprocess.run(command, cwd=tree, capture_output=True, text=True)
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        sys.exit(f"{script[0]} failed in {tree}:\n{done.stderr[-2000:]}")
    return with_search_totals(with_cpu_per_play({**json.loads(lines[-1]), "load_average": load}))


def with_cpu_per_play(run: dict) -> dict:
    """``api_plays.py`` gives the cores each side used while playing: per play, in ms."""
    cores, rate = run.get("cpu_cores", {}).get("plays"), run.get("plays_per_second")
    if cores and rate:
        run["gunicorn_cpu_ms_per_play"] = round(cores["gunicorn"] * 1000 / rate, 2)
        run["postgres_cpu_ms_per_play"] = round(cores["postgres"] * 1000 / rate, 2)
    return run


def with_search_totals(run: dict) -> dict:
    """``analysis_nodes.py`` gives a row per level: its CPU seconds and nodes, summed."""
    rows = run.get("rows")
    if rows and all("cpu_s" in row and "nodes" in row for row in rows):
        run["search_cpu_s"] = round(sum(row["cpu_s"] for row in rows), 1)
        run["nodes_searched"] = sum(row["nodes"] for row in rows)
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", action="append", required=True, help="NAME=REVISION[+PATCH]")
    parser.add_argument("--pairs", type=int, default=3, help="rounds: each variant runs once per round")
    parser.add_argument(
        "--compile",
        nargs="*",
        metavar="NAME",
        help="compile the trees' search with mypyc first: every tree's, or only the variants named",
    )
    parser.add_argument("script", nargs=argparse.REMAINDER, help="-- benchmark.py [its arguments]")
    args = parser.parse_args()
    script = args.script[1:] if args.script[:1] == ["--"] else args.script
    specs = {name: spec for name, _, spec in (variant.partition("=") for variant in args.variant)}
    compiled = set(specs) if args.compile == [] else set(args.compile or ())
    if unknown := compiled - set(specs):
        parser.error(f"--compile names no variant: {', '.join(sorted(unknown))}")
    with tempfile.TemporaryDirectory(prefix="side_by_side_") as scratch:
        trees = {}
        for name, spec in specs.items():
            revision, _, patch = spec.partition("+")
            trees[name] = exported(revision, patch or None, Path(scratch))
            if name in compiled:
                compile_search(trees[name])
        runs: dict[str, list[dict]] = {name: [] for name in trees}
        for round_ in range(1, args.pairs + 1):
            for name, tree in trees.items():
                started = time.strftime("%H:%M:%S", time.gmtime())
                runs[name].append(run_once(tree, script))
                load = runs[name][-1]["load_average"]
                print(f"round {round_} {name} ({started} UTC, load {load:.1f}) done", flush=True)
    print(f"\n{' '.join(script)}: {args.pairs} rounds, alternating")
    for figure in FIGURES:
        if all(figure in run for variant in runs.values() for run in variant):
            for name, variant in runs.items():
                values = [run[figure] for run in variant]
                listed = ", ".join(f"{value:g}" for value in values)
                print(f"{figure:34} {name:16} median {statistics.median(values):>9.3f}   ({listed})")
    print(json.dumps(runs))


if __name__ == "__main__":
    main()
