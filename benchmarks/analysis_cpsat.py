"""Issue 27 item 1, round fifteen: an odgrywka's ``best`` (all four play for one seat) solved by a
constraint solver with clause learning (OR-Tools CP-SAT) instead of the search, to see how each
grows with the tricks left.

    .venv/bin/pip install -e '.[research]'   # OR-Tools: not needed by the project itself
    .venv/bin/python benchmarks/analysis_cpsat.py [--deals 4] [--seed 27] [--levels 13,10,7]
                                                  [--seconds 60] [--check-nodes 200000000]

The first ``--deals`` odgrywki among the simulated deals of ``--seed`` (the draw of
``benchmarks/analysis_nodes.py``), at the trick start with each number of tricks left of
``--levels``: for each seat the most points it can end with when all four play for it (R16,
R17, R22, R27's transfer added), as CP-SAT proves it on one worker within ``--seconds``. With
``--check-nodes`` the same position is analysed by the search (``analyse(deal, nodes=N)``) and
each value the search proves exact is compared: a line per search, then per level how many
were proven optimal, how many agreed, and the solver's median and largest wall seconds.

The model: one true/false per card and trick (each card played once, each player one card a
trick); the leader of each trick (the winner of the one before, R3); R16 as clauses — a player
holding the led suit follows it, and one holding a card above the highest already in the trick
plays above it (who has played before him follows from the leader); the winner is the highest
card of the led suit; R22's multiplier from the seats that end with a trick. Nothing here is the
search's: it is a second, independent statement of the same rules, so agreement is a check too.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

try:
    from ortools.sat.python import cp_model
except ImportError:  # an optional extra: say how to get it rather than fail with a traceback
    sys.exit("OR-Tools is not installed: .venv/bin/pip install -e '.[research]'")

from analysis_nodes import simulated_deals  # noqa: E402

from games.engine import analysis  # noqa: E402
from games.engine.ruleset import Kind  # noqa: E402
from games.engine.scoring import ODGRYWKA_TRICK_POINTS, raw_points  # noqa: E402


class BestModel:
    """``seat``'s best in the odgrywka ``deal`` from its trick start, as a CP-SAT model."""

    def __init__(self, deal, seat: int):
        assert deal.kind is Kind.ODGRYWKA and deal.led < 0, "an odgrywka at a trick start"
        self.m = cp_model.CpModel()
        self.owner = {c: p for p in range(4) for c in range(52) if deal.hands[p] >> c & 1}
        self.cards = sorted(self.owner)
        self.tricks = range(14 - deal.trick_no)
        self.x = {(c, t): self.m.NewBoolVar(f"x{c}_{t}") for c in self.cards for t in self.tricks}
        self.lead = {(p, t): self.m.NewBoolVar(f"lead{p}_{t}") for p in range(4) for t in self.tricks}
        self.plays_once(deal.turn)
        self.led = self.led_suits()
        self.follows()
        self.overtakes()
        self.wins = self.winners()
        past = raw_points(deal.kind, deal.plays, deal.winners, deal.ruleset.last_tricks)[seat]
        self.value = self.points(seat, past, [bool(n) for n in deal.tricks])

    def bool_and(self, a, b):
        v = self.m.NewBoolVar("")
        self.m.AddBoolAnd([a, b]).OnlyEnforceIf(v)
        self.m.AddBoolOr([a.Not(), b.Not()]).OnlyEnforceIf(v.Not())
        return v

    def still_holds(self, cards: list[int], t: int):
        """True when at least one of ``cards`` (one player's) is still in hand at trick ``t``."""
        v = self.m.NewBoolVar("")
        played = sum(self.x[c, u] for c in cards for u in range(t))
        self.m.Add(played <= len(cards) - 1).OnlyEnforceIf(v)
        self.m.Add(played == len(cards)).OnlyEnforceIf(v.Not())
        return v

    def plays_once(self, leader: int) -> None:
        """Each card once; each player one card a trick; one leader a trick, the first given."""
        for c in self.cards:
            self.m.AddExactlyOne(self.x[c, t] for t in self.tricks)
        for t in self.tricks:
            self.m.AddExactlyOne(self.lead[p, t] for p in range(4))
            for p in range(4):
                self.m.AddExactlyOne(self.x[c, t] for c in self.cards if self.owner[c] == p)
        for p in range(4):
            self.m.Add(self.lead[p, 0] == int(p == leader))

    def led_suits(self) -> dict:
        """The suit of the card the leader plays, per trick."""
        led_card = {
            (c, t): self.bool_and(self.x[c, t], self.lead[self.owner[c], t]) for c in self.cards for t in self.tricks
        }
        led = {}
        for s in range(4):
            for t in self.tricks:
                led[s, t] = self.m.NewBoolVar("")
                self.m.Add(led[s, t] == sum(led_card[c, t] for c in self.cards if c // 13 == s))
        return led

    def follows(self) -> None:
        """R16: a player holding the led suit plays a card of it."""
        for p in range(4):
            for s in range(4):
                suit = [c for c in self.cards if self.owner[c] == p and c // 13 == s]
                for t in self.tricks if suit else ():
                    holds = self.still_holds(suit, t)
                    self.m.Add(sum(self.x[c, t] for c in suit) == 1).OnlyEnforceIf([self.led[s, t], holds])

    def before(self, q: int, p: int, t: int):
        """1 when ``q`` plays before ``p`` in trick ``t`` (clockwise from its leader)."""
        return sum(self.lead[lead, t] for lead in range(4) if (q - lead) % 4 < (p - lead) % 4)

    def overtakes(self) -> None:
        """R16: holding a card above the highest of the led suit already in the trick, play above
        it. Forbidden: playing ``a`` while holding ``b`` above it, when the highest card played
        before lies between them."""
        earlier = {}
        for e in self.cards:
            for p in range(4):
                if p != self.owner[e]:
                    for t in self.tricks:
                        v = earlier[e, p, t] = self.m.NewBoolVar("")
                        b = self.before(self.owner[e], p, t)
                        self.m.Add(v <= self.x[e, t])
                        self.m.Add(v <= b)
                        self.m.Add(v >= self.x[e, t] + b - 1)
        for p in range(4):
            for s in range(4):
                mine = sorted(c for c in self.cards if self.owner[c] == p and c // 13 == s)
                theirs = [e for e in self.cards if self.owner[e] != p and e // 13 == s]
                for i, a in enumerate(mine):
                    for b in mine[i + 1 :]:
                        self.no_underplay(p, s, a, b, theirs, earlier)

    def no_underplay(self, p: int, s: int, a: int, b: int, theirs: list[int], earlier: dict) -> None:
        between = [e for e in theirs if a < e < b]
        above = [e for e in theirs if e > b]
        for t in self.tricks if between else ():
            top_between = self.m.NewBoolVar("")
            self.m.AddMaxEquality(top_between, [earlier[e, p, t] for e in between])
            holds_b = self.still_holds([b], t)
            clause = [self.x[a, t].Not(), self.led[s, t].Not(), top_between.Not(), holds_b.Not()]
            self.m.AddBoolOr(clause + [earlier[e, p, t] for e in above])

    def winners(self) -> dict:
        """The highest card of the led suit wins (a discard never does); its player leads next (R3)."""
        wins = {}
        for c in self.cards:
            higher = [e for e in self.cards if e // 13 == c // 13 and e > c]
            for t in self.tricks:
                v = wins[c, t] = self.m.NewBoolVar("")
                self.m.AddImplication(v, self.x[c, t])
                self.m.AddImplication(v, self.led[c // 13, t])
                for e in higher:
                    self.m.AddImplication(v, self.x[e, t].Not())
                self.m.AddBoolOr([self.x[c, t].Not(), self.led[c // 13, t].Not(), v] + [self.x[e, t] for e in higher])
        for t in self.tricks:
            self.m.AddExactlyOne(wins[c, t] for c in self.cards)
            if t + 1 < len(self.tricks):
                for p in range(4):
                    self.m.Add(self.lead[p, t + 1] == sum(wins[c, t] for c in self.cards if self.owner[c] == p))
        return wins

    def points(self, seat: int, past: int, has_trick: list[bool]):
        """R17 and R22: (raw points) × (seats with no trick + 1); 0 for a seat with none."""
        taken = {
            p: sum(self.wins[c, t] for c in self.cards if self.owner[c] == p for t in self.tricks) for p in range(4)
        }
        ends_with = []
        for p in range(4):
            v = self.m.NewBoolVar("")
            if has_trick[p]:
                self.m.Add(v == 1)
            else:
                self.m.Add(taken[p] >= 1).OnlyEnforceIf(v)
                self.m.Add(taken[p] == 0).OnlyEnforceIf(v.Not())
            ends_with.append(v)
        raw = self.m.NewIntVar(0, 130, "raw")
        self.m.Add(raw == past + ODGRYWKA_TRICK_POINTS * taken[seat])  # 0 when the seat ends with none
        multiplier = self.m.NewIntVar(1, 4, "multiplier")
        self.m.Add(multiplier == 5 - sum(ends_with))
        value = self.m.NewIntVar(0, 520, "value")
        self.m.AddMultiplicationEquality(value, [raw, multiplier])
        self.m.Maximize(value)
        return value

    def solve(self, seconds: float) -> tuple[str, int | None, int | None, float]:
        """The status, the best line found and the proven bound (both None when no line was found in time:
        CP-SAT's bound then means nothing)."""
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1  # one core, as the target is stated
        solver.parameters.max_time_in_seconds = seconds
        status = solver.Solve(self.m)
        found = status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
        return (
            solver.StatusName(status),
            int(solver.ObjectiveValue()) if found else None,
            int(solver.BestObjectiveBound()) if found else None,
            solver.WallTime(),
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument("--levels", default="13,10,7")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--check-nodes", type=int, default=0, help="compare with analyse(nodes=N) where exact")
    args = parser.parse_args()
    deals = [d for d in simulated_deals(args.seed, 4 * args.deals + 8) if d.kind is Kind.ODGRYWKA][: args.deals]
    for left in (int(x) for x in args.levels.split(",")):
        optimal, agreed, checked, seconds = 0, 0, 0, []
        for number, deal in enumerate(deals):
            position = analysis.deal_position(deal, 4 * (13 - left))
            transfer = analysis.sale_transfer(position)
            found = analysis.analyse(position, nodes=args.check_nodes) if args.check_nodes else None
            for seat in range(4):
                status, value, bound, wall = BestModel(position, seat).solve(args.seconds)
                if value is not None:  # R27: the sale's transfer, as analyse adds it
                    value, bound = value + transfer[seat], bound + transfer[seat]
                search = found.seats[seat].best if found else None
                exact = search.low if search is not None and search.exact else None
                optimal += status == "OPTIMAL"
                if exact is not None and status == "OPTIMAL":
                    checked += 1
                    agreed += exact == value
                seconds.append(wall)
                line = {"deal": number, "left": left, "seat": "NESW"[seat], "status": status, "value": value}
                print(json.dumps(line | {"bound": bound, "search": exact, "wall_s": round(wall, 2)}), flush=True)
        print(
            f"{left} tricks left: {optimal}/{len(seconds)} optimal, {agreed}/{checked} agree with the search, "
            f"wall s median {statistics.median(seconds):.2f}, max {max(seconds):.2f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
