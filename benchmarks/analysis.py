"""The arbiter's analysis (issue 17): time to an exact answer, exactness under a budget, nodes per
second, and what each pruning idea is worth.

    .venv/bin/python benchmarks/analysis.py [--positions 1000] [--deep 10] [--ablation 40]
                                            [--seed 17] [--no-tt] [--no-merge] [--no-bounds]

1. ``--positions`` random positions with at most 7 tricks left (at least 24 cards played), taken
   from deals of simulated matches (``games.engine.simulate``): the distribution of the time to
   the exact answer (budget 30 s, so that the tail is measured rather than cut). Target: every
   one exact within 1 s on one core: CPU seconds of this process are that measure on a shared
   machine (wall seconds are printed too).
2. ``--deep`` positions with 8 to 13 tricks left, with the 10 s budget: time and exactness rate.
3. ``--ablation`` positions with at most 5 tricks left, solved with each pruning idea switched
   off in turn (transposition table, rank merging, availability bounds): time and nodes against
   all on (budget 30 s; a run that hits it counts as not exact).

``--no-tt``/``--no-merge``/``--no-bounds`` switch an idea off for parts 1 and 2. One process,
one core; on a shared machine the figures are noisy.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine import record, replay
from games.engine.analysis import SearchOptions, analyse, deal_position
from games.engine.simulate import simulate_match


def positions(rng: random.Random, count: int, lowest: int, highest: int) -> list:
    """``count`` positions with ``lowest``..``highest`` cards played, from simulated deals."""
    found = []
    while len(found) < count:
        state = replay(record.decode(simulate_match(rng))).state
        for result in rng.sample(state.results, min(3, len(state.results))):
            found.append((result.final, rng.randint(lowest, highest)))
    rng.shuffle(found)
    return [deal_position(deal, plays) for deal, plays in found[:count]]


def solve(deals: list, budget: float, options: SearchOptions) -> dict:
    """Each position's wall time and CPU time (this process alone: what one core did, whatever
    else the shared machine runs), the nodes searched and how many answers were exact."""
    times, cpu, nodes, exact = [], [], 0, 0
    for deal in deals:
        started, started_cpu = time.perf_counter(), time.process_time()
        result = analyse(deal, budget=budget, options=options)
        times.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
        nodes += result.nodes
        exact += result.exact
    return {"times": times, "cpu": cpu, "nodes": nodes, "exact": exact}


def quantiles(times: list[float]) -> dict:
    ordered = sorted(times)

    def at(share: float) -> float:
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))]

    return {"median": at(0.5), "p90": at(0.9), "p99": at(0.99), "max": ordered[-1], "mean": statistics.fmean(ordered)}


def report(title: str, run: dict, *, limit: float | None) -> dict:
    count = len(run["times"])
    figures = {
        "positions": count,
        "exact": run["exact"],
        "nodes_per_cpu_second": round(run["nodes"] / max(sum(run["cpu"]), 1e-9)),
        "nodes_per_wall_second": round(run["nodes"] / max(sum(run["times"]), 1e-9)),
    }
    print(
        f"{title}: exact {run['exact']}/{count}; {figures['nodes_per_cpu_second']:,} nodes per CPU second "
        f"({figures['nodes_per_wall_second']:,} per wall second)"
    )
    for name in ("cpu", "times"):
        q = quantiles(run[name])
        line = {k: round(v, 4) for k, v in q.items()}
        if limit is not None:
            line["within_limit"] = sum(t <= limit for t in run[name])
        figures["wall" if name == "times" else "cpu"] = line
        print(
            f"  {'CPU ' if name == 'cpu' else 'wall'} seconds: median {q['median']:.3f}, p90 {q['p90']:.3f}, "
            f"p99 {q['p99']:.3f}, max {q['max']:.3f}, mean {q['mean']:.3f}"
            + (f"; within {limit:g} s: {line['within_limit']}/{count}" if limit is not None else "")
        )
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--deep", type=int, default=10)
    parser.add_argument("--ablation", type=int, default=40)
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--no-tt", action="store_true")
    parser.add_argument("--no-merge", action="store_true")
    parser.add_argument("--no-bounds", action="store_true")
    args = parser.parse_args()
    options = SearchOptions(transpositions=not args.no_tt, merge_ranks=not args.no_merge, bounds=not args.no_bounds)
    rng = random.Random(args.seed)
    figures: dict = {
        "options": {
            "transpositions": options.transpositions,
            "merge_ranks": options.merge_ranks,
            "bounds": options.bounds,
        }
    }

    if args.positions:
        late = solve(positions(rng, args.positions, 24, 51), 30.0, options)
        figures["late"] = report(f"<= 7 tricks left, {args.positions} positions, budget 30 s", late, limit=1.0)

    if args.deep:
        deep = solve(positions(rng, args.deep, 0, 20), 10.0, options)
        figures["deep"] = report(f"8-13 tricks left, {args.deep} positions, budget 10 s", deep, limit=None)

    if args.ablation:
        deals = positions(rng, args.ablation, 32, 51)
        variants = {
            "all on": SearchOptions(),
            "no transposition table": SearchOptions(transpositions=False),
            "no rank merging": SearchOptions(merge_ranks=False),
            "no bounds": SearchOptions(bounds=False),
        }
        figures["ablation"] = {}
        for name, variant in variants.items():
            run = solve(deals, 30.0, variant)
            cpu, wall = sum(run["cpu"]), sum(run["times"])
            print(
                f"ablation ({args.ablation} positions, <= 5 tricks left), {name}: {cpu:.2f} CPU s "
                f"({wall:.2f} wall s), {run['nodes']:,} nodes, exact {run['exact']}/{args.ablation}"
            )
            figures["ablation"][name] = {
                "cpu_seconds": round(cpu, 3),
                "wall_seconds": round(wall, 3),
                "nodes": run["nodes"],
                "exact": run["exact"],
            }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
