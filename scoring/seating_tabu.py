"""The tabu search of the evening seating (``scoring/seating.py``), over player indices.

A step swaps two players of different tables in one round: the best swap that is not tabu
(a player moved in a round stays put there for a few steps) among those moving a player who
sits with someone he has met before — the local search that works on social-golfer problems
(Dotú & Van Hentenryck). When it stalls, a few random swaps shake it loose.

The cost is lexicographic, as integer weights: ``triple`` per pair meeting a third time (or
more), then ``weight`` per repeat meeting (a pair meeting k times counts k − 1), then the
earlier evenings' counts of the pairs that meet. Deterministic for a seed: the work is bounded
by a count of swaps evaluated, never by a clock; the deadline (``time.monotonic``) is only a
safety stop for a starved machine, and ``clock_stopped`` says when it fired.
"""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter

STALL = 40  # steps without a new best before the shake
SHAKE = 2  # random swaps in a shake


def ordered(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


class Tabu:
    def __init__(
        self,
        tables: list[list[list[int]]],
        *,
        met: Counter,
        past: dict[tuple[int, int], int],
        weight: int,
        triple: int,
        frozen: int,
        seed: int,
    ):
        """``tables[r]``: round r's tables (lists of player indices); ``met``: the pairs' meetings
        before these rounds; ``frozen``: how many first rounds stay as they are."""
        self.tables = [[list(group) for group in one] for one in tables]
        self.past, self.weight, self.triple, self.frozen = past, weight, triple, frozen
        self.met = Counter(met)
        for one in self.tables:
            for group in one:
                for a, b in itertools.combinations(group, 2):
                    self.met[ordered(a, b)] += 1
        self.rng = random.Random(seed)
        self.clock_stopped = False
        self.work = 0  # swaps evaluated so far

    def cost(self) -> int:
        return (
            self.triple * sum(1 for c in self.met.values() if c > 2)
            + self.weight * sum(c - 1 for c in self.met.values() if c > 1)
            + sum(c * self.past.get(k, 0) for k, c in self.met.items())
        )

    def run(self, work: int, deadline: float, target: int = 0) -> list[list[list[int]]]:
        """The best rounds found within ``work`` swaps evaluated (or at ``deadline``, on
        ``time.monotonic``, which sets ``clock_stopped``); stops early at cost ``target``."""
        current = best_cost = self.cost()
        best = [[list(g) for g in one] for one in self.tables]
        tabu: dict[tuple[int, int], int] = {}
        improved = step = 0
        while self.work < work and best_cost > target:
            if time.monotonic() > deadline:
                self.clock_stopped = True
                break
            if step - improved > STALL:
                current, improved, tabu = current + self.shake(), step, {}
            moves = [
                move
                for move in self.moves()
                if (tabu.get((move[2], move[1]), -1) < step and tabu.get((move[4], move[1]), -1) < step)
                or current + move[0] < best_cost
            ]
            if not moves:
                break
            delta, r, p, q = self.best_of(moves)
            self.swap(r, p, q)
            current += delta
            tabu[p, r] = tabu[q, r] = step + self.rng.randint(3, 9)
            if current < best_cost:
                best_cost, best, improved = current, [[list(g) for g in one] for one in self.tables], step
            step += 1
        return best

    def moves(self):
        """(delta, round, p, table of q, q) for each swap of a player in a repeat (or in a pair
        of the earlier evenings). The delta of p and q changing places is what each leaves at
        his table (summed once per player) plus what each joins at the other's, less p and q
        themselves: ``delta`` by parts, each lookup done once."""
        for r in range(self.frozen, len(self.tables)):
            tables = self.tables[r]
            leave = {x: sum(self._leave(ordered(x, a)) for a in g if a != x) for g in tables for x in g}
            for ta, group in enumerate(tables):
                toward: dict[int, int] = {}  # q → what q would join at this table, p included
                for p in group:
                    if not any(self.met[ordered(p, o)] > 1 or self.past.get(ordered(p, o)) for o in group if o != p):
                        continue
                    for tb, other in enumerate(tables):
                        if tb == ta:
                            continue
                        joins_p = sum(self._join(ordered(p, b)) for b in other)
                        for q in other:
                            if q not in toward:
                                toward[q] = sum(self._join(ordered(q, a)) for a in group)
                            both = self._join(ordered(p, q))  # p and q do not sit together after the swap
                            self.work += 1
                            yield leave[p] + leave[q] + joins_p + toward[q] - 2 * both, r, p, tb, q

    def best_of(self, moves) -> tuple[int, int, int, int]:
        delta, _, r, p, q = min((delta, self.rng.random(), r, p, q) for delta, r, p, _, q in moves)
        return delta, r, p, q

    def delta(self, group: list[int], p: int, other: list[int], q: int) -> int:
        """The cost change of p (in ``group``) and q (in ``other``) changing places."""
        change = 0
        for stay, leaving, coming in ((group, p, q), (other, q, p)):
            for a in stay:
                if a not in (p, q):
                    change += self._leave(ordered(leaving, a)) + self._join(ordered(coming, a))
        return change

    def _leave(self, key) -> int:
        count = self.met[key]
        return (-self.triple if count == 3 else 0) + (-self.weight if count >= 2 else 0) - self.past.get(key, 0)

    def _join(self, key) -> int:
        count = self.met[key]
        return (self.triple if count == 2 else 0) + (self.weight if count >= 1 else 0) + self.past.get(key, 0)

    def swap(self, r: int, p: int, q: int) -> None:
        group = next(g for g in self.tables[r] if p in g)
        other = next(g for g in self.tables[r] if q in g)
        for stay, leaving, coming in ((group, p, q), (other, q, p)):
            for a in stay:
                if a not in (p, q):
                    self.met[ordered(leaving, a)] -= 1
                    self.met[ordered(coming, a)] += 1
        group[group.index(p)], other[other.index(q)] = q, p

    def shake(self) -> int:
        """A few random swaps; returns their cost change."""
        change = 0
        rounds = range(self.frozen, len(self.tables))
        if not rounds or len(self.tables[0]) < 2:
            return 0
        for _ in range(SHAKE):
            r = self.rng.choice(rounds)
            group, other = self.rng.sample(self.tables[r], 2)
            p, q = self.rng.choice(group), self.rng.choice(other)
            change += self.delta(group, p, other, q)
            self.swap(r, p, q)
        return change
