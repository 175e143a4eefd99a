"""Issue 27 item 1, in nodes: how many positions the analysis solves exactly within a budget of
search nodes, with ``SearchOptions`` switches off and on, side by side in one run.

    .venv/bin/python benchmarks/analysis_nodes.py [--deals 20] [--seed 27] [--nodes 5000000]
                                                  [--levels 13,10,7,4] [--before FIELD=0,...]
                                                  [--after FIELD=1,...] [--by-search]

The same ``--deals`` deals of simulated matches (``games.engine.simulate``, seed ``--seed``, as
``benchmarks/analysis_first_card.py`` draws them) are analysed at the positions with each
number of tricks left of ``--levels`` (4 × (13 − left) cards played), each position with a
budget of ``--nodes`` nodes (``analyse(deal, nodes=N)``: no clock is read, so the figures are
the same on every run and machine, whatever the load). Each row: the options ("before": the
defaults with the ``--before`` switches, ``FIELD=0`` or ``FIELD=1``; "after": with the
``--after`` ones), exact positions, the nodes used (total, median, max), and how wide the
proven bounds are where a search did not end (each of worst, best and guaranteed: its
``high − low`` summed over the positions' four seats; 0 where every position is exact), and the
nodes by kind of deal and mode (``by_mode``: where the budget goes). The CPU seconds
of each run are printed too (``time.process_time``, one process: on a shared machine the nodes
are the measure; the seconds give nodes per second). ``--by-search`` also prints each
position's nodes by search (seat and mode, the largest first) and each seat's proven values:
where a position's budget goes.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.engine import analysis, record, replay  # noqa: E402
from games.engine.simulate import simulate_match  # noqa: E402


def simulated_deals(seed: int, count: int) -> list:
    """The first ``count`` whole deals of simulated matches (the draw of analysis_first_card.py)."""
    rng, deals = random.Random(seed), []
    while len(deals) < count:
        state = replay(record.decode(simulate_match(rng))).state
        deals.extend(result.final for result in state.results if len(result.final.plays) == 52)
    return deals[:count]


def measure(deals: list, left: int, nodes: int, options: analysis.SearchOptions, by_search: bool = False) -> dict:
    exact, used, cpu = 0, [], time.process_time()
    widths = dict.fromkeys(analysis.MODES, 0)
    by_mode: dict[str, dict[str, int]] = {}
    for number, deal in enumerate(deals):
        analyser = analysis.Analyser(options)
        found = analyser.analyse(analysis.deal_position(deal, 4 * (13 - left)), nodes=nodes)
        exact += found.exact
        used.append(found.nodes)
        for values in found.seats:
            for mode in widths:
                bounds = getattr(values, mode)
                widths[mode] += bounds.high - bounds.low
        kind = by_mode.setdefault(deal.kind.value, dict.fromkeys(analysis.MODES, 0))
        for (_, mode), search in analyser.searches.items():
            kind[mode] += search.nodes
        if by_search:
            print_searches(number, deal, found, analyser)
    return {
        "left": left,
        "exact": exact,
        "positions": len(deals),
        "nodes": sum(used),
        "median": int(statistics.median(used)),
        "max": max(used),
        "cpu_s": round(time.process_time() - cpu, 1),
        "widths": widths,
        "by_mode": by_mode,
    }


def print_searches(number: int, deal, found: analysis.Analysis, analyser: analysis.Analyser) -> None:
    """One position's nodes by search (seat, mode), the largest first, with each seat's values."""
    seats = "NESW"
    print(f"  #{number} {deal.kind.value}, {seats[found.to_play]} to play, exact {found.exact}, {found.nodes:,} nodes")
    for (seat, mode), search in sorted(analyser.searches.items(), key=lambda item: -item[1].nodes):
        share = search.nodes / found.nodes if found.nodes else 0
        print(f"    {seats[seat]} {mode:<10} {search.nodes:>12,} nodes ({share:.0%})")
    for seat, values in zip(seats, found.seats, strict=True):
        print(f"    {seat} {values.bounds_json()}")


def switched(switches: str) -> analysis.SearchOptions:
    """The default ``SearchOptions`` with ``FIELD=0``/``FIELD=1`` switches (comma-separated)."""
    pairs = [item.split("=") for item in switches.split(",") if item]
    return dataclasses.replace(analysis.SearchOptions(), **{name: value == "1" for name, value in pairs})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument("--nodes", type=int, default=5_000_000)
    parser.add_argument("--levels", default="13,10,7,4")
    parser.add_argument("--before", default="", help="SearchOptions switches of the 'before' rows: FIELD=0,FIELD=1")
    parser.add_argument("--after", default="", help="SearchOptions switches of the 'after' rows")
    parser.add_argument("--by-search", action="store_true", help="each position's nodes by search (seat, mode)")
    args = parser.parse_args()
    deals = simulated_deals(args.seed, args.deals)
    levels = [int(x) for x in args.levels.split(",")]
    runs = {"after": switched(args.after)}
    if args.before:
        runs = {"before": switched(args.before), **runs}
    print(f"search {'compiled' if analysis.compiled() else 'pure Python'}, {args.nodes:,} nodes per position")
    rows = []
    for left in levels:
        for name, options in runs.items():
            row = {"run": name, **measure(deals, left, args.nodes, options, args.by_search)}
            rows.append(row)
            rate = row["nodes"] / row["cpu_s"] if row["cpu_s"] else 0
            print(
                f"{left:>2} left {name:>6}: {row['exact']:>2}/{row['positions']} exact, nodes {row['nodes']:,} "
                f"(median {row['median']:,}, max {row['max']:,}), {row['cpu_s']} CPU s ({rate / 1e6:.2f} M nodes/s)",
                flush=True,
            )
            print(f"{'':>14}bounds wide (points, summed): {', '.join(f'{m} {w:,}' for m, w in row['widths'].items())}")
            for kind, modes in sorted(row["by_mode"].items()):
                print(f"{'':>14}{kind} nodes: {', '.join(f'{m} {n:,}' for m, n in modes.items())}")
    print(json.dumps({"compiled": analysis.compiled(), "nodes": args.nodes, "rows": rows}))


if __name__ == "__main__":
    main()
