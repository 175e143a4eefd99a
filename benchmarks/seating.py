"""Evening seating figures (issue 24): quality, evenness and time of scoring/seating.py.

    .venv/bin/python benchmarks/seating.py [--seeds 5] [--budget 2.0] [--work 250000]

For each case (players × rounds) and each of ``--seeds`` seeds it seats the evening one round
at a time as the API does — each round in a fresh state (the plans kept in the process are
forgotten first, as a request served by another worker would find them) — and prints:

- repeats: the evening's repeat meetings (a pair meeting k times counts k − 1), worst over the
  seeds, next to the lower bound with no pair three times (``repeat_lower_bound``);
- most met: the most times any pair met (2 or less: no pair three times);
- seat: the most times any player sat in one seat; dealer: most minus fewest first-dealer turns;
- time per round (seconds): median and max over every round of every seed;
- clock: how many rounds the wall-clock safety stop cut short (0: the work budget decided).

Then the determinism check: one evening planned with nothing else started by this script, and
again while two processes (started here, ended here by their ids) keep both cores busy: the
same seating, or the script says it is not.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

from scoring.seating import (
    WORK,
    dealer_spread,
    evening_lower_bound,
    forget_plans,
    most_in_one_seat,
    pair_counts,
    plan_evening,
    repeat_meetings,
    seat_round,
)

CASES = [(12, 3), (13, 4), (16, 5), (20, 5), (24, 6), (32, 8), (40, 6), (40, 8)]
LOAD = "while True: pass"  # what each load process runs


def seat_evening(players: int, rounds: int, seed: int, budget: float, work: int) -> tuple[list, list[float], int]:
    """The evening seated round by round: its rounds, the seconds each took, the clock stops."""
    played, seconds, stopped = [], [], 0
    for left in range(rounds, 0, -1):
        forget_plans()
        started = time.perf_counter()
        plan = seat_round(
            present=range(players),
            played=played,
            rounds_left=left,
            seed=seed,
            time_budget=budget,
            work=work,
            follow_plan=not stopped,  # as the API does: a round the clock cut short is not the plan's
        )
        seconds.append(time.perf_counter() - started)
        stopped += plan.clock_stopped
        played.append(plan.rounds[0])
    return played, seconds, stopped


def quality(args) -> None:
    print(
        f"{'case':>8} {'repeats':>8} {'bound':>6} {'most met':>9} {'seat':>5} {'dealer':>7} "
        f"{'median s':>9} {'max s':>6} {'clock':>6}"
    )
    for players, rounds in CASES:
        repeats, most, seat, dealer, times, clock = [], [], [], [], [], 0
        for seed in range(args.seeds):
            played, seconds, stopped = seat_evening(players, rounds, seed, args.budget, args.work)
            repeats.append(repeat_meetings(played))
            most.append(max(pair_counts(played).values()))
            seat.append(most_in_one_seat(played))
            dealer.append(dealer_spread(range(players), played))
            times += seconds
            clock += stopped
        print(
            f"{players:>4} × {rounds} {max(repeats):>8} {evening_lower_bound(players, rounds):>6} {max(most):>9} "
            f"{max(seat):>5} {max(dealer):>7} {statistics.median(times):>9.2f} {max(times):>6.2f} {clock:>6}"
        )


def determinism(args) -> None:
    """The same seating with and without two busy processes (the wall clock far away, so that
    only the work budget bounds the search, as it does within the 2 s on this machine)."""
    players, rounds, seed = 24, 6, 7  # a case that spends its whole work budget
    forget_plans()
    quiet = plan_evening(players=range(players), rounds=rounds, seed=seed, time_budget=60, work=args.work)
    load = [subprocess.Popen([sys.executable, "-c", LOAD]) for _ in range(2)]
    try:
        forget_plans()
        started = time.perf_counter()
        busy = plan_evening(players=range(players), rounds=rounds, seed=seed, time_budget=60, work=args.work)
        seconds = time.perf_counter() - started
    finally:
        for process in load:
            process.kill()
            process.wait()
    same = "the same seating" if busy.rounds == quiet.rounds else "ANOTHER SEATING"
    print(
        f"determinism, {players} × {rounds}, seed {seed}: {same} under two busy processes "
        f"({busy.work} swaps both times: {quiet.work == busy.work}; {seconds:.2f} s loaded)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--budget", type=float, default=2.0, help="the wall-clock safety stop per round (seconds)")
    parser.add_argument("--work", type=int, default=WORK, help="the work budget: swaps the search evaluates")
    args = parser.parse_args()
    quality(args)
    determinism(args)


if __name__ == "__main__":
    main()
