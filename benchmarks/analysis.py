"""The arbiter's analysis (issue 17): time to an exact answer, exactness under a budget, nodes per
second, and what each pruning idea is worth.

    .venv/bin/python benchmarks/analysis.py [--positions 1000] [--deep 10] [--ablation 40] [--seed 17]
                                            [--quick] [--no-tt] [--no-merge] [--no-bounds] [--no-decided]
                                            [--no-other-pasts] [--no-penalty-order] [--no-shared-tables]
                                            [--shed-cards] [--decided-leads] [--null-window] [--slowest 10]

1. ``--positions`` random positions with at most 7 tricks left (at least 24 cards played), taken
   from deals of simulated matches (``games.engine.simulate``): the distribution of the time to
   the exact answer (budget 30 s, so that the tail is measured rather than cut). Target: every
   one exact within 1 s on one core: CPU seconds of this process are that measure on a shared
   machine (wall seconds are printed too).
2. ``--deep`` positions with 8 to 13 tricks left, with the 10 s budget: time and exactness rate.
3. ``--ablation`` positions with at most 5 tricks left, solved with each pruning idea switched
   off in turn (``SearchOptions``: transposition table, rank merging, availability bounds,
   decided-trick bounds, table entries of other pasts, penalty-aware ordering, shared
   worst/best tables): one side-by-side
   table of time and nodes against all on (budget 30 s, ``--ablation-budget``; a run that hits
   it counts as not exact, and its nodes are cut short: on a loaded machine raise the budget).

4. ``--late-ablation`` positions with 6 or 7 tricks left (where the slow tail is), solved with
   each of the cheaper ideas switched off (decided-trick bounds, other pasts, ordering, shared
   tables).

``--no-…`` switch an idea off for parts 1 and 2; ``--shed-cards``, ``--decided-leads`` and
``--null-window`` switch on the three ideas that are off by default (measured, they do not pay: see
docs/analysis.md), and both ablation tables have a row with each of them on. ``--slowest N``
lists part 1's N positions with the most nodes (index, kind, tricks left, nodes, CPU s).
``--quick`` is a smoke run (40, 2, 10 and 5 positions) for CI. One process, one core; on a
shared machine the times are noisy — the node counts are not (they depend on the load only
through the budget).
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

REFERENCE_NODES_PER_SECOND = 640_000  # one idle core of the reference machine (docs/analysis.md)
SWITCHES = (  # flag, SearchOptions field, what it switches off
    ("--no-tt", "transpositions", "transposition table"),
    ("--no-merge", "merge_ranks", "rank merging"),
    ("--no-bounds", "bounds", "availability bounds (and decided-trick bounds)"),
    ("--no-decided", "decided_tricks", "decided-trick bounds"),
    ("--no-other-pasts", "other_pasts", "table entries of other pasts as bounds"),
    ("--no-penalty-order", "penalty_order", "penalty-aware move ordering"),
    ("--no-shared-tables", "shared_tables", "worst/best tables shared with guaranteed"),
)
EXTRAS = (  # flag, SearchOptions field, what it switches on (off by default: measured, they do not pay)
    ("--shed-cards", "shed_cards", "shed cards (cards to come at their cheapest)"),
    ("--decided-leads", "decided_leads", "decided leads (trick start: must/cannot take)"),
    ("--null-window", "null_window", "null window (zero-window probes)"),
)


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
    times, cpu, counts, exact = [], [], [], 0
    for deal in deals:
        started, started_cpu = time.perf_counter(), time.process_time()
        result = analyse(deal, budget=budget, options=options)
        times.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
        counts.append(result.nodes)
        exact += result.exact
    return {"times": times, "cpu": cpu, "nodes": sum(counts), "counts": counts, "exact": exact}


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
    q = quantiles(run["counts"])
    line = {k: round(v) for k, v in q.items()}
    if limit is not None:  # the nodes one idle core searched per second on the reference machine
        line["within_limit"] = sum(n <= REFERENCE_NODES_PER_SECOND * limit for n in run["counts"])
    figures["nodes"] = line
    print(
        f"  nodes (load-independent): median {q['median']:,.0f}, p90 {q['p90']:,.0f}, p99 {q['p99']:,.0f}, "
        f"max {q['max']:,.0f}"
        + (
            f"; within {REFERENCE_NODES_PER_SECOND * limit:,.0f} (1 s at {REFERENCE_NODES_PER_SECOND:,}/s): "
            f"{line['within_limit']}/{count}"
            if limit is not None
            else ""
        )
    )
    return figures


def slowest(deals: list, run: dict, count: int) -> list:
    """The ``count`` positions with the most nodes: their index in part 1 (the same seed gives
    the same positions), kind, tricks left, nodes and CPU seconds."""
    order = sorted(range(len(deals)), key=lambda i: run["counts"][i], reverse=True)[:count]
    rows = []
    print(f"  the {count} positions with the most nodes:")
    for i in order:
        deal = deals[i]
        row = {"index": i, "kind": deal.kind.value, "tricks_left": 14 - deal.trick_no}
        row.update({"nodes": run["counts"][i], "cpu": round(run["cpu"][i], 3)})
        rows.append(row)
        nodes, cpu = row["nodes"], row["cpu"]
        print(f"    #{i}: {row['kind']}, {row['tricks_left']} tricks left, {nodes:,} nodes, {cpu:.2f} CPU s")
    return rows


def ablation(deals: list, variants: dict, budget: float = 30.0) -> dict:
    """One side-by-side table: each variant's time and nodes on the same positions."""
    print(f"{'search':50} {'CPU s':>8} {'wall s':>8} {'nodes':>12} {'nodes/all on':>13} {'exact':>9}")
    figures, base = {}, None
    for name, variant in variants.items():
        run = solve(deals, budget, variant)
        cpu, wall = sum(run["cpu"]), sum(run["times"])
        base = base or run["nodes"]
        print(
            f"{name:50} {cpu:8.2f} {wall:8.2f} {run['nodes']:12,} {run['nodes'] / base:13.2f} "
            f"{run['exact']:>4}/{len(deals)}"
        )
        figures[name] = {"cpu_seconds": round(cpu, 3), "wall_seconds": round(wall, 3), "nodes": run["nodes"]}
        figures[name]["exact"] = run["exact"]
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--deep", type=int, default=10)
    parser.add_argument("--ablation", type=int, default=40)
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--late-ablation", type=int, default=30)
    parser.add_argument("--quick", action="store_true", help="a smoke run: 40, 2, 10 and 5 positions")
    parser.add_argument("--slowest", type=int, default=0, help="list part 1's N positions with the most nodes")
    parser.add_argument("--ablation-budget", type=float, default=30.0, help="seconds per position in parts 3 and 4")
    for flag, _, help_text in SWITCHES + EXTRAS:
        parser.add_argument(flag, action="store_true", help=help_text)
    args = parser.parse_args()
    if args.quick:
        args.positions, args.deep, args.ablation, args.late_ablation = 40, 2, 10, 5
    switched = {field: not getattr(args, flag[2:].replace("-", "_")) for flag, field, _ in SWITCHES}
    switched.update({field: getattr(args, flag[2:].replace("-", "_")) for flag, field, _ in EXTRAS})
    options = SearchOptions(**switched)
    rng = random.Random(args.seed)
    figures: dict = {"options": switched}
    budget = f"(budget {args.ablation_budget:g} s)"

    if args.positions:
        deals = positions(rng, args.positions, 24, 51)
        late = solve(deals, 30.0, options)
        figures["late"] = report(f"<= 7 tricks left, {args.positions} positions, budget 30 s", late, limit=1.0)
        if args.slowest:
            figures["slowest"] = slowest(deals, late, args.slowest)

    if args.deep:
        deep = solve(positions(rng, args.deep, 0, 20), 10.0, options)
        figures["deep"] = report(f"8-13 tricks left, {args.deep} positions, budget 10 s", deep, limit=None)

    if args.ablation:
        deals = positions(rng, args.ablation, 32, 51)
        variants = {"all on": SearchOptions()}
        variants.update({f"no {help_text}": SearchOptions(**{field: False}) for _, field, help_text in SWITCHES})
        variants["all off"] = SearchOptions(**{field: False for _, field, _ in SWITCHES})
        variants.update({f"with {text}": SearchOptions(**{field: True}) for _, field, text in EXTRAS})
        print(f"\nablation: {args.ablation} positions with <= 5 tricks left, each idea switched off", budget)
        figures["ablation"] = ablation(deals, variants, args.ablation_budget)

    if args.late_ablation:
        deals = positions(rng, args.late_ablation, 24, 31)
        print(f"\nablation: {args.late_ablation} positions with 6-7 tricks left, the cheaper ideas", budget)
        variants = {"all on": SearchOptions()}
        variants.update({f"no {text}": SearchOptions(**{field: False}) for _, field, text in SWITCHES[3:]})
        variants.update({f"with {text}": SearchOptions(**{field: True}) for _, field, text in EXTRAS})
        figures["late_ablation"] = ablation(deals, variants, args.ablation_budget)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
