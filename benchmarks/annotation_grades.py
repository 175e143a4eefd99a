"""Issue 27 item 2, in nodes: how many early cards the annotation grades within a budget of
search nodes, with ``SearchOptions`` switches off and on, side by side in one run.

    .venv/bin/python benchmarks/annotation_grades.py [--deals 3] [--seed 27] [--cards 28]
                                                     [--nodes 4000000] [--before FIELD=0,...]
                                                     [--after FIELD=1,...]

The first ``--cards`` cards of each of ``--deals`` simulated deals (the draw of
``benchmarks/analysis_nodes.py``) are annotated as the worker annotates a deal
(``annotation.annotate``: one ``Analyser`` for the deal, its positions in order), each position
within ``--nodes`` nodes (``ANNOTATION_BUDGET_NODES`` is 4,000,000). Each row: the options
("before": the defaults with the ``--before`` switches; "after": with the ``--after`` ones), the
cards graded, the cards whose cost is exact, how wide the cards' cost ranges are (``high − low``,
averaged over the cards), the nodes used (and how many of them went to the positions searched to
the end), and how far the positions cut short ran past their budget (the search checks its node
count every 1,024 nodes at most: a search cut short may overrun its share a little, and one that
stops early leaves the rest unspent). Nodes do not depend on the load; the CPU seconds are printed too.
With both rows, the positions are compared one by one: the nodes of those searched to the end
in both runs, and those searched to the end in one run only (a position cut short leaves the
next one more to do, so the sum over the exact positions moves with them).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from analysis_nodes import simulated_deals, switched  # noqa: E402

from games.engine import analysis, annotation  # noqa: E402


def measure(deals: list, cards: int, nodes: int, options: analysis.SearchOptions) -> dict:
    graded = exact = width = 0
    count, cpu = 0, time.process_time()
    positions = {}  # (deal, cards played) → (exact, nodes)
    for number, deal in enumerate(deals):
        # the worker's order: every position of the deal from the first card, one Analyser
        annotated = annotation.annotate(deal, analyser=partial(analysis.Analyser(options).analyse, nodes=nodes))
        notes = annotated.notes[:cards]
        searched = annotated.positions[: len(notes)]  # the position before each of those cards
        for note in notes:
            count += 1
            graded += note.grade is not None
            exact += note.cost.exact
            width += note.cost.high - note.cost.low
        for played, found in enumerate(searched):
            positions[(number, played)] = (found.exact, found.nodes)
    short = [used for exact_position, used in positions.values() if not exact_position]
    return {
        "cards": count,
        "graded": graded,
        "exact": exact,
        "mean_width": round(width / count, 1),
        "nodes": sum(used for _, used in positions.values()),
        "nodes_exact_positions": sum(used for exact_position, used in positions.values() if exact_position),
        "positions_cut_short": len(short),
        "overrun": sum(short) - nodes * len(short),
        "cpu_s": round(time.process_time() - cpu, 1),
        "positions": positions,
    }


def compared(before: dict, after: dict) -> dict:
    """The positions searched to the end in one run and not the other, with their nodes, and the
    nodes of those searched to the end in both: a change in the nodes of the exact positions is
    often one position that became exact or stopped being, and the next ones it fed."""
    both = [p for p, (exact, _) in before.items() if exact and after[p][0]]
    return {
        "exact_in_both": len(both),
        "nodes_before": sum(before[p][1] for p in both),
        "nodes_after": sum(after[p][1] for p in both),
        "largest_changes": sorted(both, key=lambda p: abs(after[p][1] - before[p][1]), reverse=True)[:3],
        "exact_only_before": exact_only(before, after),
        "exact_only_after": exact_only(after, before),
    }


def exact_only(one: dict, other: dict) -> list:
    """The positions searched to the end in ``one`` and cut short in ``other``."""
    return [p for p, (exact, _) in one.items() if exact and not other[p][0]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=3)
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument("--cards", type=int, default=28, help="the first cards of each deal (its early tricks)")
    parser.add_argument("--nodes", type=int, default=4_000_000)
    parser.add_argument("--before", default="", help="SearchOptions switches of the 'before' row: FIELD=0,FIELD=1")
    parser.add_argument("--after", default="", help="SearchOptions switches of the 'after' row")
    args = parser.parse_args()
    deals = simulated_deals(args.seed, args.deals)
    runs = {"after": switched(args.after)}
    if args.before:
        runs = {"before": switched(args.before), **runs}
    print(f"search {'compiled' if analysis.compiled() else 'pure Python'}, {args.nodes:,} nodes per position")
    rows = []
    for name, options in runs.items():
        started = time.perf_counter()
        row = {"run": name, **measure(deals, args.cards, args.nodes, options)}
        rows.append(row)
        print(
            f"{name:>6}: graded {row['graded']}/{row['cards']}, exact {row['exact']}, "
            f"cost ranges {row['mean_width']} points wide on average, nodes {row['nodes']:,} "
            f"({row['nodes_exact_positions']:,} in the positions searched to the end; "
            f"{row['positions_cut_short']} positions cut short, {row['overrun']:,} nodes past their budgets), "
            f"{row['cpu_s']} CPU s ({time.perf_counter() - started:.0f} s)",
            flush=True,
        )
    searched = [row.pop("positions") for row in rows]  # per position: not printed as JSON
    if len(searched) == 2:
        before, after = searched
        split = compared(before, after)
        print(
            f"positions searched to the end in both runs: {split['exact_in_both']}, "
            f"nodes {split['nodes_before']:,} → {split['nodes_after']:,}; the largest changes (deal, cards played): "
            + ", ".join(f"{p} {before[p][1]:,} → {after[p][1]:,}" for p in split["largest_changes"])
        )
        for name, only, nodes in (("before", "exact_only_before", before), ("after", "exact_only_after", after)):
            listed = ", ".join(f"{p} {nodes[p][1]:,}" for p in split[only])
            print(f"searched to the end only {name}: {listed or 'none'}")
        rows.append({"run": "compared", **split})
    print(json.dumps({"compiled": analysis.compiled(), "nodes": args.nodes, "rows": rows}))


if __name__ == "__main__":
    main()
