"""Issue 27 item 1: the analysis from the first card, today's code against the code before it,
pure Python and compiled (mypyc), side by side in one run.

    .venv/bin/python benchmarks/analysis_first_card.py [--deals 20] [--budget 2] [--seed 27]
                                                       [--before REF] [--variants ...] [--whole-deals 0]
                                                       [--parallel] [--ideas]

The same ``--deals`` deals of simulated matches (``games.engine.simulate``, seed ``--seed``) are
analysed at the positions with 13, 10, 7 and 4 tricks left (0, 12, 24 and 36 cards played), each
with a budget of ``--budget`` CPU seconds, by four copies of the engine: the code at ``--before``
(default: where this branch left ``main``) and the working tree's, each pure and compiled. Each
copy runs in its own process, all four at once (``--parallel``) or one after another; each
reads its budget and its times as CPU seconds of its own process (``time.perf_counter`` is
replaced by ``time.process_time`` there), the one-core measure on a shared machine. The table
gives, per number of tricks left, the share of exact answers and the CPU seconds' median, p99
and max.

``--ideas`` measures only each bound of issue 27 off and on (``SearchOptions``), in nodes.

``--whole-deals K`` (the working tree's code, compiled) also analyses every position of K deals
(0 to 52 cards played) with one ``Analyser``, against each position alone, each position with
``--whole-budget`` CPU seconds.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LEVELS = (13, 10, 7, 4)  # tricks left: 4 × (13 − left) cards played

# The worker: the budget is CPU seconds of its own process ("2 s of one core", whatever else the
# shared machine runs): both the code before and today's read the time through time.perf_counter.
WORKER = """
import json, random, sys, time
time.perf_counter = time.process_time
from games.engine import record, replay
from games.engine import analysis
from games.engine.simulate import simulate_match

seed, count, budget = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
levels, whole, whole_budget = json.loads(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6])
rng, deals = random.Random(seed), []
while len(deals) < count:
    state = replay(record.decode(simulate_match(rng))).state
    deals.extend(result.final for result in state.results if len(result.final.plays) == 52)
deals = deals[:count]

def timed(run):
    cpu, wall = time.process_time(), time.perf_counter()
    found = run()
    return found, time.process_time() - cpu, time.perf_counter() - wall

rows = {}
for left in levels:
    rows[left] = []
    for deal in deals:
        position = analysis.deal_position(deal, 4 * (13 - left))
        found, cpu, wall = timed(lambda: analysis.analyse(position, budget=budget))
        rows[left].append({"exact": found.exact, "cpu": cpu, "wall": wall, "nodes": found.nodes})
out = {"module": analysis.__file__, "compiled": analysis.__file__.endswith(".so"), "rows": rows}
if whole:
    alone, together = [], []
    for deal in deals[:whole]:
        positions = [analysis.deal_position(deal, n) for n in range(53)]
        found, cpu, wall = timed(lambda: [analysis.analyse(p, budget=whole_budget) for p in positions])
        alone.append({"exact": sum(a.exact for a in found), "cpu": cpu})
        found, cpu, wall = timed(lambda: analysis.analyse_deal_positions(deal, budget=whole_budget))
        together.append({"exact": sum(a.exact for a in found), "cpu": cpu})
    out["whole"] = {"alone": alone, "together": together}
print(json.dumps(out))
"""


def engine_copy(work: Path, name: str, revision: str | None, compiled: bool) -> Path:
    """A copy of ``games/engine`` under ``work/name``, at git ``revision`` (None: the working
    tree's), built with mypyc if asked (by its own ``compiled.py``)."""
    root = work / name
    if revision is None:
        shutil.copytree(
            ROOT / "games" / "engine",
            root / "games" / "engine",
            ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.sha256"),
        )
    else:
        root.mkdir()
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", revision, "games/engine"], capture_output=True, check=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(root)], input=archive, check=True)
    (root / "games" / "__init__.py").write_text("")
    if compiled:
        subprocess.run(
            [
                sys.executable,
                "-c",
                "import sys; from pathlib import Path; from games.engine import compiled; "
                "compiled.build(Path(sys.argv[1]))",
                str(root),
            ],
            cwd=root,
            check=True,
            capture_output=True,
        )
    return root


def start(root: Path, args: argparse.Namespace, whole: int) -> subprocess.Popen:
    command = [sys.executable, "-c", WORKER, str(args.seed), str(args.deals), str(args.budget), json.dumps(LEVELS)]
    env = {"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"}
    return subprocess.Popen(
        [*command, str(whole), str(args.whole_budget)], cwd=root, env=env, stdout=subprocess.PIPE, text=True
    )


def finish(process: subprocess.Popen) -> dict:
    out, _ = process.communicate()
    if process.returncode:
        raise SystemExit(f"a worker failed ({process.returncode})")
    return json.loads(out)


IDEAS = (("another_taker", "rozbojnik"), ("quick_tricks", "odgrywka"))  # each bound and the kind it works in


def ideas(args: argparse.Namespace) -> None:
    """Each bound of issue 27 off and on, on the deals of the kind it works in, at 13 and 7
    tricks left, with a budget of ``--idea-nodes`` nodes per position (deterministic: the
    exact count and the nodes are the same on every run; the working tree's code, as built)."""
    sys.path.insert(0, str(ROOT))
    from games.engine import record, replay
    from games.engine.analysis import SearchOptions, analyse, deal_position
    from games.engine.simulate import simulate_match

    rng, deals = random.Random(args.seed), []
    while len(deals) < 4 * args.idea_deals:
        deals.extend(
            r.final for r in replay(record.decode(simulate_match(rng))).state.results if len(r.final.plays) == 52
        )
    print("| idea | kind | tricks left | positions | off: exact, nodes | on: exact, nodes |")
    print("|---|---|---|---|---|---|")
    for field, kind in IDEAS:
        chosen = [d for d in deals if d.kind.value == kind][: args.idea_deals]
        for left in (13, 7):
            cells = []
            for on in (False, True):
                found = [
                    analyse(
                        deal_position(d, 4 * (13 - left)), nodes=args.idea_nodes, options=SearchOptions(**{field: on})
                    )
                    for d in chosen
                ]
                cells.append(f"{sum(a.exact for a in found)}, {sum(a.nodes for a in found):,}")
            print(f"| {field} | {kind} | {left} | {len(chosen)} | {cells[0]} | {cells[1]} |", flush=True)


def quantile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--budget", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument("--before", default=None, help="git ref of the code before (default: merge-base with main)")
    parser.add_argument("--variants", default="before-pure,after-pure,before-compiled,after-compiled")
    parser.add_argument("--whole-deals", type=int, default=0)
    parser.add_argument("--whole-budget", type=float, default=0.5)
    parser.add_argument("--parallel", action="store_true", help="run the four copies at once")
    parser.add_argument("--ideas", action="store_true", help="only each new bound off and on, in nodes")
    parser.add_argument("--idea-deals", type=int, default=6)
    parser.add_argument("--idea-nodes", type=int, default=3_000_000)
    args = parser.parse_args()
    if args.ideas:
        ideas(args)
        return
    git = ["git", "-C", str(ROOT)]
    before = (
        args.before
        or subprocess.run(
            [*git, "merge-base", "HEAD", "main"], capture_output=True, text=True, check=True
        ).stdout.strip()
    )
    revisions = {"before": before, "after": None}  # None: the working tree's engine
    results: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as work:
        running = {}
        for variant in args.variants.split(","):
            code, build = variant.split("-")
            root = engine_copy(Path(work), variant, revisions[code], build == "compiled")
            whole = args.whole_deals if variant == "after-compiled" else 0
            running[variant] = start(root, args, whole)
            if not args.parallel:
                results[variant] = finish(running.pop(variant))
        results.update({variant: finish(process) for variant, process in running.items()})
        for variant, found in results.items():
            print(f"{variant}: {found['module'].rsplit('/', 1)[-1]}", file=sys.stderr)
    print(
        f"{args.deals} simulated deals (seed {args.seed}), budget {args.budget:g} s per position;",
        f"before = {before[:10]}",
    )
    header = "| tricks left | " + " | ".join(results) + " |"
    print(header)
    print("|" + "---|" * (len(results) + 1))
    for left in LEVELS:
        cells = []
        for figures in results.values():
            rows = figures["rows"][str(left)]
            cpu = [r["cpu"] for r in rows]
            exact = sum(r["exact"] for r in rows)
            cells.append(
                f"{exact}/{len(rows)} exact; {quantile(cpu, 0.5):.2f} / {quantile(cpu, 0.99):.2f} / {max(cpu):.2f}"
            )
        print(f"| {left} | " + " | ".join(cells) + " |")
    print("(each cell: exact within the budget; CPU seconds median / p99 / max)")
    whole = results.get("after-compiled", {}).get("whole")
    if whole:
        for how in ("alone", "together"):
            exact = sum(r["exact"] for r in whole[how])
            cpu = sum(r["cpu"] for r in whole[how])
            print(f"whole deals, {how}: {exact}/{53 * len(whole[how])} positions exact, {cpu:.1f} CPU s")
    print(json.dumps(results))


if __name__ == "__main__":
    main()
