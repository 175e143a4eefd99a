"""Evening seating figures (issue 15): time and quality of scoring/seating.py.

    .venv/bin/python benchmarks/seating.py [--budget 2.0] [--seed 0] [--round-by-round]

For each case (16 × 5, 12 × 3, 13 × 4 and 40 × 6, players × rounds) it plans the whole
evening (or, with --round-by-round, seats it one round at a time as the API does) and prints
the wall time, the repeat meetings (a pair meeting k times counts k − 1), the best possible
where it is known, the sit-out spread (most rounds sat out minus fewest), whether the solver
proved its result optimal, and which step answered. Target: ≤ 2 s for each of the first three.
The machine's load shows in the times (CP-SAT runs on one worker, its limit is deterministic).
"""

from __future__ import annotations

import argparse
import time

from scoring.seating import plan_evening, repeat_meetings, seat_round, sit_out_spread

# (players, rounds, the fewest repeats possible — a string when only a bound is known; the proofs are in
# tests/scoring/test_scoring_seating.py)
CASES = [(16, 5, 0), (12, 3, 6), (13, 4, "7–9"), (40, 6, 0)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=2.0, help="the search's time budget per call (seconds)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--round-by-round", action="store_true", help="seat one round per call, as the API does")
    args = parser.parse_args()
    plan_evening(players=range(4), rounds=1)  # import OR-Tools and warm up outside the timings
    print(f"{'case':>8} {'seconds':>8} {'repeats':>8} {'best':>5} {'spread':>7} {'optimal':>8}  step")
    for players, rounds, best in CASES:
        started = time.perf_counter()
        if args.round_by_round:
            played, statuses, proved = [], [], True
            for left in range(rounds, 0, -1):
                plan = seat_round(
                    present=range(players), played=played, rounds_left=left, seed=args.seed, time_budget=args.budget
                )
                played.append(plan.rounds[0])
                statuses.append(plan.status)
                proved = proved and plan.optimal
            seated, status = played, "/".join(sorted(set(statuses)))
        else:
            plan = plan_evening(players=range(players), rounds=rounds, seed=args.seed, time_budget=args.budget)
            seated, status, proved = list(plan.rounds), plan.status, plan.optimal
        seconds = time.perf_counter() - started
        print(
            f"{players:>4} × {rounds} {seconds:8.2f} {repeat_meetings(seated):8d} {best:>5} "
            f"{sit_out_spread(range(players), seated):7d} {str(proved):>8}  {status}"
        )


if __name__ == "__main__":
    main()
