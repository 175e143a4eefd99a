"""Seating a club evening: who sits at which table of four in each round, in which seat, and
who deals first. Pure Python over plain values (player ids); no Django.

What a seating optimises, in this order (issue 24):

1. *the fewest pairs meeting three times or more* (none whenever possible): repeats are
   spread thin, never piled on one pair;
2. *the fewest repeat meetings* (a pair that met ``k`` times counts ``k − 1``);
3. *the fewest meetings of pairs who met on the season's earlier evenings* (a pair-count
   matrix the caller gives: each meeting weighs its earlier count);
4. *sit-outs go round* (a hard rule, not traded against the above): those who sit out a round
   are taken from those who have missed fewest rounds — nobody sits out twice before everyone
   has once (a late arrival's missed rounds count as sat out, so he is not sent away at once);
5. *seats and first dealers even*: what the seating guarantees is below.

The tables come from a construction when one fits (``design_rounds``: the players are the
points of a plane over GF(q), 4q players × q rounds with no pair twice — 16 × 5, 20 × 5,
28 × 7, 32 × 8, 36 × 9, … — or over the integers modulo q for a few rounds: 40 × 5) and from
fair greedy rounds after it or otherwise, then a tabu search
(``scoring.seating_tabu``) lowers the cost above. It stops at the lower bound
(``repeat_lower_bound``) or when its *work* — a count of swaps evaluated — is spent: the same
players, history and seed give the same seating on any machine under any load. The wall clock
(``time_budget``) is only a safety stop for a starved machine; ``Plan.clock_stopped`` says when
it fired (and the seating is then the best found so far).

A round is seated one at a time as the evening goes. The whole evening is planned at round 1;
each later round is taken from that plan when the players present are still those of the plan
and the rounds played are the plan's (the plan is a function of players, rounds, history and
seed: recomputing it gives it again, and a cache saves the time); otherwise — a late arrival, a
withdrawal, a round seated by hand — the remaining rounds are planned again from what was
played, with the same objective, so that no pair meets a third time when that can be avoided.

Seats and first dealers of a planned evening (guaranteed, tested):

- *seats*: at every table four different seats, and each player sits in each seat at most
  ⌈rounds he plays / 4⌉ times — in an evening of up to four rounds, a different seat every
  round (a bipartite edge colouring: tables and players' blocks of four rounds, four colours);
- *first dealer*: at every table one of its players; nobody deals first more than
  ⌈tables / players⌉ times over the evening's planned rounds (at most once while there are
  no more tables than players), a bipartite matching with that capacity.

When the rounds are re-planned after a change, seats and dealers of the new rounds are given
table by table instead: the first dealer is whoever at the table dealt first least often, and
the seats are the assignment with the fewest seats a player had already.

``totals`` (the evening's running balances) turns on Swiss seating for round 2 and later: the
top four sit together, then the next four, and so on (sit-outs still go round fairly).
"""

from __future__ import annotations

import functools
import itertools
import logging
import random
import time
from collections import Counter, defaultdict
from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from math import comb

from .seating_tabu import Tabu, ordered

logger = logging.getLogger(__name__)

SEATS = ("N", "E", "S", "W")  # R1 order
TABLE = 4  # Kierki is played four at a table, always
SEARCHED = ("design", "greedy", "tabu", "plan")  # a Plan's status when the work budget, not the clock, ended it
WORK = 120_000  # swaps the tabu search may evaluate per plan: the deterministic budget (0.5–1 s on this machine)
Player = Hashable
Pair = tuple


class SeatingError(ValueError):
    """The players given cannot be seated; ``code`` says why, ``players`` whom it is about."""

    def __init__(self, code: str, detail: str, players: Iterable = ()):
        super().__init__(detail)
        self.code, self.detail, self.players = code, detail, tuple(players)


@dataclass(frozen=True)
class Table:
    players: tuple  # in seat order N, E, S, W
    first_dealer: str = "N"

    def seats(self) -> dict[str, Player]:
        return dict(zip(SEATS, self.players))

    @property
    def dealer(self) -> Player:
        return self.players[SEATS.index(self.first_dealer)]


@dataclass(frozen=True)
class Round:
    tables: tuple[Table, ...]
    sitting_out: tuple = ()

    def seated(self) -> list[Player]:
        return [p for table in self.tables for p in table.players]

    def present(self) -> set:
        return {*self.seated(), *self.sitting_out}


@dataclass(frozen=True)
class Plan:
    """What the search returned: the rounds, and how good they are."""

    rounds: tuple[Round, ...]
    repeats: int  # repeat meetings within the evening (played rounds included)
    past_repeats: int  # meetings in the planned rounds of pairs that met on earlier evenings
    optimal: bool  # the repeats are at the lower bound and nobody meets three times
    status: str = ""  # which step answered: design, tabu, plan (an earlier plan followed), swiss
    triples: int = 0  # pairs meeting three times or more within the evening
    lower_bound: int = 0  # the fewest repeats possible with nobody meeting three times (a bound)
    clock_stopped: bool = False  # the wall-clock safety stop fired: the work budget was not spent
    work: int = 0  # swaps the search evaluated


# --- measures ---------------------------------------------------------------------------------


def pair(a: Player, b: Player) -> Pair:
    return (a, b) if _key(a) <= _key(b) else (b, a)


def _key(player: Player):
    return (type(player).__name__, player)


def pair_counts(rounds: Iterable[Round]) -> Counter:
    """How many times each pair sat at one table in ``rounds``."""
    counts: Counter = Counter()
    for one in rounds:
        for table in one.tables:
            for a, b in itertools.combinations(table.players, 2):
                counts[pair(a, b)] += 1
    return counts


def repeat_meetings(rounds: Iterable[Round]) -> int:
    """Σ (k − 1) over the pairs that met k ≥ 2 times."""
    return sum(count - 1 for count in pair_counts(rounds).values() if count > 1)


def pairs_met_thrice(rounds: Iterable[Round]) -> int:
    """How many pairs met three times or more."""
    return sum(1 for count in pair_counts(rounds).values() if count > 2)


def missed_rounds(players: Iterable[Player], rounds: Sequence[Round]) -> Counter:
    """For each player, the rounds of ``rounds`` he did not play (sat out, or was not there)."""
    played = Counter(p for one in rounds for p in one.seated())
    return Counter({p: len(rounds) - played[p] for p in players})


def sit_out_spread(players: Iterable[Player], rounds: Sequence[Round]) -> int:
    """Most rounds missed minus fewest, over ``players``: 1 or 0 when sit-outs went round."""
    missed = missed_rounds(players, rounds)
    return max(missed.values()) - min(missed.values()) if missed else 0


def most_in_one_seat(rounds: Iterable[Round]) -> int:
    """The most times any player sat in the same seat."""
    counts = Counter((p, seat) for one in rounds for table in one.tables for seat, p in table.seats().items())
    return max(counts.values(), default=0)


def dealer_spread(players: Iterable[Player], rounds: Sequence[Round]) -> int:
    """Most turns as first dealer minus fewest, over ``players``."""
    dealt = Counter(table.dealer for one in rounds for table in one.tables)
    turns = [dealt[p] for p in players]
    return max(turns) - min(turns) if turns else 0


def met_before(one: Round, played: Sequence[Round], past_pairs: Mapping[Pair, int] | None = None) -> list[list]:
    """For each table of ``one``, its pairs who met before: ``(a, b, tonight, earlier)`` — the
    times they sat together in ``played`` and on the season's earlier evenings."""
    tonight, past = pair_counts(played), past_pairs or {}
    tables = []
    for table in one.tables:
        pairs = [pair(a, b) for a, b in itertools.combinations(table.players, 2)]
        tables.append([(*key, tonight[key], past.get(key, 0)) for key in pairs if tonight[key] or past.get(key, 0)])
    return tables


# --- lower bounds -----------------------------------------------------------------------------


def repeat_lower_bound(attendance: Sequence[Collection[Player]]) -> int:
    """The fewest repeat meetings of any seating in which no pair meets three times, for an
    evening whose rounds have these players present (``attendance[r]``: seated or sitting out).

    Two counts, the larger holds. *Between two rounds*: a table of round r′ seats four
    players; those who sat at tables in round r came from only ``m`` tables, so when ``m < 4``
    some of them sat together (pigeonhole) — each such pair meets twice. Only players who did
    not sit at a table in round r (they sat out or were not there) can dilute that. With no
    pair three times, every such coincidence of two rounds is one repeat. *Per player*
    (attendance that does not change): someone who plays ``k`` rounds meets ``3k`` others, so
    ``3k − (n − 1)`` of his meetings at least are repeats; each repeat counts for two players.
    """
    rounds = [set(one) for one in attendance]
    coincidences = 0
    for r, later in itertools.combinations(range(len(rounds)), 2):
        before, after = rounds[r], rounds[later]
        singles = len(after - before) + len(before) % TABLE  # in round r′ but not at a table in round r
        coincidences += _two_rounds(len(before) // TABLE, len(after) // TABLE, min(singles, len(after)))
    return max(coincidences, _per_player(rounds))


def evening_lower_bound(players: int, rounds: int) -> int:
    """``repeat_lower_bound`` of an evening whose ``players`` stay all ``rounds``."""
    return repeat_lower_bound([range(players)] * rounds)


def _pairs_from(k: int, tables: int) -> int:
    """The fewest pairs among ``k`` players who sat at ``tables`` tables (spread evenly)."""
    if tables == 0:
        return 0
    q, rem = divmod(k, tables)
    return rem * comb(q + 1, 2) + (tables - rem) * comb(q, 2)


@functools.cache
def _two_rounds(tables_before: int, tables_after: int, singles: int) -> int:
    """The fewest pairs of round r′'s tables who sat at one table in round r, when ``singles``
    of its players did not sit at a table in r (a small knapsack over r′'s tables)."""
    best = [0] + [None] * singles  # best[s]: the fewest pairs with s singles used so far
    for _ in range(tables_after):
        step: list = [None] * (singles + 1)
        for used, cost in enumerate(best):
            if cost is None:
                continue
            for j in range(min(TABLE, singles - used) + 1):
                value = cost + _pairs_from(TABLE - j, tables_before)
                if step[used + j] is None or value < step[used + j]:
                    step[used + j] = value
        best = step
    return min(cost for cost in best if cost is not None)


def _per_player(rounds: list[set]) -> int:
    if not rounds or any(one != rounds[0] for one in rounds):
        return 0
    n, count = len(rounds[0]), len(rounds)
    outs = (n % TABLE) * count  # sit-outs, spread evenly (the hard rule)
    excess = 0
    for k in range(n):
        plays = count - (outs // n + (1 if k < outs % n else 0))
        excess += max(0, 3 * plays - (n - 1))
    return -(-excess // 2)


# --- constructions ----------------------------------------------------------------------------

FIELDS = {4: (2, (1, 1)), 8: (2, (1, 1, 0)), 9: (3, (2, 0))}  # q: (p, x^k as a polynomial of lower degree)


@functools.cache
def _field(q: int) -> tuple[tuple, tuple] | None:
    """GF(q)'s addition and multiplication tables over 0..q−1 (an element's base-p digits are
    its polynomial's coefficients), for q prime or in ``FIELDS``; None otherwise."""
    if q in FIELDS:
        p, reduce = FIELDS[q]
    elif q >= 2 and all(q % d for d in range(2, int(q**0.5) + 1)):
        p, reduce = q, (0,)
    else:
        return None
    k = len(reduce)

    def digits(x: int) -> list[int]:
        return [(x // p**i) % p for i in range(k)]

    def number(ds: Sequence[int]) -> int:
        return sum(d * p**i for i, d in enumerate(ds))

    def times(x: int, y: int) -> int:
        if k == 1:
            return x * y % p
        product = [0] * (2 * k - 1)
        for i, a in enumerate(digits(x)):
            for j, b in enumerate(digits(y)):
                product[i + j] += a * b
        for d in range(2 * k - 2, k - 1, -1):  # x^d = x^(d−k) · x^k
            for i, c in enumerate(reduce):
                product[d - k + i] += product[d] * c
            product[d] = 0
        return number([c % p for c in product[:k]])

    add = tuple(tuple(number([(a + b) % p for a, b in zip(digits(x), digits(y))]) for y in range(q)) for x in range(q))
    mul = tuple(tuple(times(x, y) for y in range(q)) for x in range(q))
    return add, mul


def design_rounds(players: int, rounds: int) -> list[list[tuple[int, ...]]] | None:
    """Up to ``rounds`` rounds of tables (over 0..players−1) in which no pair meets twice, when
    ``players`` = 4q: player a·q + b is the point (a, b), a < 4, and round r seats at table t
    the points (a, t + a·r). Two points (a, b), (a′, b′) share a table only in a round r with
    (a − a′)·r = b − b′. Over the field GF(q) that r is unique: q rounds (q + 1 when q = 4:
    the rows are the affine plane's last parallel class). Over the integers modulo q (q not a
    prime power: 24, 40, …) it is unique among rounds whose differences times 1, 2 and 3 are
    not 0 modulo q: as many of those rounds as there are (5 of 10 for 40 players). None when no
    construction fits; the caller seats any further rounds otherwise."""
    q, rest = divmod(players, TABLE)
    if rest or q < TABLE:
        return None
    field = _field(q)
    if field is not None:
        add, mul = field
        plan = [[tuple(a * q + add[t][mul[a][r]] for a in range(TABLE)) for t in range(q)] for r in range(q)]
        if q == TABLE:  # the rows
            plan.append([tuple(a * q + b for b in range(q)) for a in range(TABLE)])
        return plan[:rounds]
    chosen: list[int] = []
    for r in range(q):
        if all(d * (r - other) % q for other in chosen for d in range(1, TABLE)):
            chosen.append(r)
    return [[tuple(a * q + (t + a * r) % q for a in range(TABLE)) for t in range(q)] for r in chosen[:rounds]]


# --- seating ----------------------------------------------------------------------------------


def seat_round(
    *,
    present: Iterable[Player],
    played: Sequence[Round] = (),
    rounds_left: int = 1,
    past_pairs: Mapping[Pair, int] | None = None,
    totals: Mapping[Player, int] | None = None,
    seed: int = 0,
    time_budget: float = 2.0,
    work: int = WORK,
    follow_plan: bool = True,
) -> Plan:
    """Seat the next round of an evening. ``played``: its rounds so far; ``rounds_left``: how
    many rounds remain, this one included; ``totals``: the running balances, for Swiss seating
    (from round 2). The plan's first round is the one to play (module docstring: the plan of the
    whole evening is followed while nothing changed). ``follow_plan`` off (a round played was
    seated by hand, or cut short by the safety stop: it cannot be the plan's) spares computing
    the whole evening's plan and plans the rounds left at once."""
    players = _checked(present)
    problem = Problem(tuple(players), _frozen(past_pairs), seed, work)
    if totals is not None and played:
        groups, out = _swiss(players, totals, missed_rounds(players, played))
        rounds = (_seat_tables(groups, out, played, seed),)
        evening = [*played, *rounds]
        return Plan(
            rounds, repeat_meetings(evening), _past(rounds, past_pairs), False, "swiss", pairs_met_thrice(evening)
        )
    rounds_left = max(1, rounds_left)
    deadline = time.monotonic() + time_budget  # one safety stop for the whole call
    if not played:
        return _first(_whole_evening(problem, rounds_left, deadline), played, past_pairs)
    same = follow_plan and all(one.present() == set(players) for one in played)
    if same and _may_follow(problem, played, rounds_left):
        whole = _whole_evening(problem, len(played) + rounds_left, deadline)
        if tuple(played) == whole.rounds[: len(played)]:
            one = whole.rounds[len(played) : len(played) + 1]
            return replace(whole, rounds=one, past_repeats=_past(one, past_pairs), status="plan", work=0)
    return _first(_search(problem, played, rounds_left, deadline), played, past_pairs)


def _may_follow(problem: Problem, played: Sequence[Round], rounds_left: int) -> bool:
    """Whether the rounds played may be the start of the whole evening's plan: with nothing to
    tell the players apart the plan's first round is the search's start (it stays), so a first
    round seated otherwise (by hand) spares computing the plan."""
    if problem.past_pairs:
        return True
    start, _ = Search(_in_seed_order(problem), {}, (), len(played) + rounds_left).start()
    groups, out = start[0]
    return {frozenset(g) for g in groups} == {frozenset(t.players) for t in played[0].tables} and set(out) == set(
        played[0].sitting_out
    )


def _in_seed_order(problem: Problem) -> list[Player]:
    order = list(problem.players)
    random.Random(problem.seed).shuffle(order)  # the seed decides who is who in the search
    return order


def plan_evening(
    *,
    players: Iterable[Player],
    rounds: int,
    past_pairs: Mapping[Pair, int] | None = None,
    seed: int = 0,
    time_budget: float = 2.0,
    work: int = WORK,
) -> Plan:
    """All the rounds of an evening whose players are known and stay."""
    problem = Problem(tuple(_checked(players)), _frozen(past_pairs), seed, work)
    return _whole_evening(problem, rounds, time.monotonic() + time_budget)


@dataclass(frozen=True)
class Problem:
    """What a plan is asked for, besides its rounds: the players present, the pairs' meetings
    on the season's earlier evenings, the seed and the work budget (swaps evaluated). The
    wall-clock safety stop is not part of it: a plan it stopped is not kept."""

    players: tuple
    past_pairs: frozenset  # of (pair, count)
    seed: int
    work: int


PLANS: dict = {}  # (problem, rounds) → the whole evening's plan: a pure function's answers, kept
PLANS_KEPT = 32


def _whole_evening(problem: Problem, rounds: int, deadline: float) -> Plan:
    """The plan of a whole evening, kept: it is asked again at each round while nothing changes.
    A plan the wall clock stopped is not kept (another try may finish its work)."""
    key = (problem, rounds)
    if key not in PLANS:
        plan = _search(problem, (), rounds, deadline)
        if plan.clock_stopped:
            return plan
        if len(PLANS) >= PLANS_KEPT:  # the oldest goes (tolerant of another thread doing the same)
            PLANS.pop(next(iter(PLANS), None), None)
        PLANS[key] = plan
    return PLANS[key]


def forget_plans() -> None:
    """Forget the plans kept (it changes no answer, only the time)."""
    PLANS.clear()


def _first(plan: Plan, played: Sequence[Round], past_pairs) -> Plan:
    one = plan.rounds[:1]
    return replace(plan, rounds=one, past_repeats=_past(one, past_pairs))


def _frozen(past_pairs: Mapping[Pair, int] | None) -> frozenset:
    return frozenset((key, count) for key, count in (past_pairs or {}).items() if count > 0)


def _checked(present: Iterable[Player]) -> list[Player]:
    players = list(present)
    twice = sorted({p for p in players if players.count(p) > 1}, key=_key)
    if twice:
        raise SeatingError("duplicate_player", f"{twice[0]!r} is listed twice", twice)
    if len(players) < TABLE:
        raise SeatingError("too_few_players", f"{len(players)} players present: a table needs {TABLE}", players)
    return sorted(players, key=_key)


def _past(rounds: Iterable[Round], past_pairs: Mapping[Pair, int] | None) -> int:
    if not past_pairs:
        return 0
    return sum(count for key, count in pair_counts(rounds).items() if past_pairs.get(key, 0))


def _search(problem: Problem, played: Sequence[Round], count: int, deadline: float) -> Plan:
    """Plan ``count`` rounds after ``played``: a construction or fair greedy rounds, improved by
    the tabu search until the lower bound or the work budget; then seats and first dealers."""
    order = _in_seed_order(problem)
    search = Search(order, dict(problem.past_pairs), played, count)
    bound = repeat_lower_bound([*(one.present() for one in played), *[order] * count])
    groupings, status = search.start()
    tabu = search.tabu(groupings, problem.seed)
    best = tabu.run(problem.work, deadline, target=search.weight * bound)
    if tabu.work:
        status = "tabu"
    if tabu.clock_stopped:
        logger.warning("seating: the wall-clock safety stop fired after %d of %d swaps", tabu.work, problem.work)
    groupings = [([tuple(order[i] for i in g) for g in best[r]], groupings[r][1]) for r in range(count)]
    rounds = tuple(_seat_evening(groupings, played, problem.seed))
    evening = [*played, *rounds]
    repeats, triples = repeat_meetings(evening), pairs_met_thrice(evening)
    return Plan(
        rounds,
        repeats,
        _past(rounds, dict(problem.past_pairs)),
        repeats <= bound and not triples,
        status + ("!clock" if tabu.clock_stopped else ""),
        triples,
        bound,
        tabu.clock_stopped,
        tabu.work,
    )


class Search:
    """The starting rounds of the tabu search, over the players in the seed's order (index i =
    ``players[i]``): a construction when one fits a fresh evening, else greedy fair rounds."""

    def __init__(self, players: list[Player], past_pairs: Mapping[Pair, int], played: Sequence[Round], count: int):
        self.players, self.count = players, count
        self.n = len(players)
        self.tables = self.n // TABLE
        self.sitting = self.n - TABLE * self.tables
        self.met = pair_counts(played)
        self.past = {key: c for key, c in past_pairs.items() if c > 0}
        self.missed = missed_rounds(players, played)
        # the weights of the lexicographic cost: a repeat outweighs every earlier evening's meeting, a
        # pair's third meeting outweighs every repeat
        self.weight = 1 + count * sum(self.past.values())
        self.triple = 1 + self.weight * (count + max(self.met.values(), default=0)) * self.n * self.n

    def start(self) -> tuple[list[tuple[list[tuple], tuple]], str]:
        design = None if self.met else design_rounds(self.n, self.count)
        if not design:
            return self._greedy(self.count), "greedy"
        rounds = [([tuple(self.players[i] for i in g) for g in groups], ()) for groups in design]
        return rounds + self._greedy(self.count - len(rounds), rounds), "design"

    def tabu(self, rounds, seed: int) -> Tabu:
        """The tabu search from ``rounds`` (sit-outs stay as they are)."""
        index = {p: i for i, p in enumerate(self.players)}
        known = [(index[a], index[b], c) for (a, b), c in self.met.items() if a in index and b in index]
        return Tabu(
            [[[index[p] for p in g] for g in groups] for groups, _ in rounds],
            met=Counter({ordered(a, b): c for a, b, c in known}),
            past={ordered(index[a], index[b]): c for (a, b), c in self.past.items() if a in index and b in index},
            weight=self.weight,
            triple=self.triple,
            frozen=1 if self._players_interchangeable() else 0,  # any first round is as good as another
            seed=seed,
        )

    def _players_interchangeable(self) -> bool:
        """Nothing tells the players apart (no round played, no earlier evening, the same
        rounds missed): any first round is as good as any other up to renaming."""
        return not self.met and not self.past and len(set(self.missed.values())) <= 1

    def _greedy(self, count: int, before: Sequence[tuple[list[tuple], tuple]] = ()) -> list[tuple[list[tuple], tuple]]:
        """``count`` rounds after the rounds played and ``before`` (the start of a construction, no
        sit-outs): fair sit-outs, then each table filled with whoever has met its players least.
        Always valid: the tabu search's start."""
        missed, met = Counter(self.missed), Counter(self.met)
        met.update(pair_counts(Round(tuple(Table(g) for g in groups)) for groups, _ in before))
        rounds, sat_out = [], []
        for _ in range(count):
            # who missed fewest rounds; among them, who met the earlier sit-outs least (so that those
            # who sit out come from different tables: they cannot meet each other in the rounds they miss)
            by_need = sorted(
                range(self.n),
                key=lambda i: (missed[self.players[i]], sum(met[pair(self.players[i], x)] for x in sat_out), i),
            )
            sitting_out = sorted(by_need[: self.sitting])
            sat_out += [self.players[i] for i in sitting_out]
            free = [i for i in range(self.n) if i not in sitting_out]
            groups = []
            while free:
                group = [free.pop(0)]
                while len(group) < TABLE:
                    best = min(free, key=lambda j: (sum(met[pair(self.players[j], self.players[k])] for k in group), j))
                    free.remove(best)
                    group.append(best)
                groups.append(tuple(self.players[i] for i in group))
                for a, b in itertools.combinations(groups[-1], 2):
                    met[pair(a, b)] += 1
            for i in sitting_out:
                missed[self.players[i]] += 1
            rounds.append((groups, tuple(self.players[i] for i in sitting_out)))
        return rounds


# --- seats and first dealers ------------------------------------------------------------------


def _seat_evening(groupings: Sequence[tuple[list[tuple], tuple]], played: Sequence[Round], seed: int) -> list[Round]:
    """Seats and first dealers of the planned rounds: coloured and matched over the whole plan
    on a fresh evening (the guarantees of the module docstring), table by table after rounds
    already played."""
    if played:
        rounds: list[Round] = []
        for groups, out in groupings:
            rounds.append(_seat_tables(groups, out, [*played, *rounds], seed + len(played) + len(rounds)))
        return rounds
    seated = _coloured_seats([groups for groups, _ in groupings], seed)
    dealers = _matched_dealers(seated)
    return [
        Round(
            tuple(Table(players, SEATS[players.index(dealer)]) for players, dealer in zip(tables, chosen)),
            tuple(sorted(out, key=_key)),
        )
        for tables, chosen, (_, out) in zip(seated, dealers, groupings)
    ]


def _coloured_seats(rounds: Sequence[Sequence[tuple]], seed: int) -> list[list[tuple]]:
    """Each table's players in seat order, by a proper 4-edge-colouring of the bipartite graph
    tables × (player, block of four of his rounds): a table's four edges get four seats, a
    block's edges (at most four) different seats (König: a bipartite graph of degree 4 is
    4-edge-colourable; each edge by an alternating-path swap)."""
    at: dict = defaultdict(dict)  # node → {colour: the node at the other end}
    played: Counter = Counter()
    for r, groups in enumerate(rounds):
        for t, group in enumerate(groups):
            for p in group:
                _colour_edge(at, ("table", r, t), ("player", p, played[p] // TABLE))
                played[p] += 1
    colours = list(range(TABLE))
    random.Random(seed).shuffle(colours)  # which colour is which seat: the seed's
    return [
        [tuple(at["table", r, t][c][1] for c in colours) for t in range(len(groups))] for r, groups in enumerate(rounds)
    ]


def _colour_edge(at: dict, u, v) -> None:
    alpha = next(c for c in range(TABLE) if c not in at[u])
    beta = next(c for c in range(TABLE) if c not in at[v])
    if alpha in at[v]:  # swap alpha and beta along the path from v: it cannot reach u (bipartite)
        path, node, colour = [], v, alpha
        while colour in at[node]:
            nxt = at[node][colour]
            path.append((node, nxt, colour))
            node, colour = nxt, beta if colour == alpha else alpha
        for a, b, c in path:
            del at[a][c], at[b][c]
        for a, b, c in path:
            other = beta if c == alpha else alpha
            at[a][other], at[b][other] = b, a
    at[u][alpha], at[v][alpha] = v, u


def _matched_dealers(rounds: Sequence[Sequence[tuple]]) -> list[list[Player]]:
    """One first dealer per table, nobody more than ``cap`` times: the least cap for which a
    matching of tables to players' turns exists (from ⌈tables / players⌉; augmenting paths)."""
    tables = [(r, t, group) for r, groups in enumerate(rounds) for t, group in enumerate(groups)]
    players = {p for _, _, group in tables for p in group}
    cap = max(1, -(-len(tables) // max(1, len(players))))
    while True:
        dealer = _match(tables, cap)
        if dealer is not None:
            break
        cap += 1
    chosen = [[None] * len(groups) for groups in rounds]
    for k, (r, t, _) in enumerate(tables):
        chosen[r][t] = dealer[k]
    return chosen


def _match(tables: list, cap: int) -> list | None:
    """Each table (k) its dealer, nobody more than ``cap`` times, or None (Kuhn's augmenting
    paths over the players' turns). The turns open one level at a time — everyone's first
    turn, then everyone's second, … — and a matched turn stays matched through later
    augmentations, so those who can deal once do before anyone deals twice."""
    owner: dict = {}  # (player, turn) → the table he deals at

    def place(k: int, seen: set, level: int) -> bool:
        group = tables[k][2]
        for p in group[k % TABLE :] + group[: k % TABLE]:  # tried from a seat that moves on: dealers' seats vary
            for turn in range(level):
                slot = (p, turn)
                if slot in seen:
                    continue
                seen.add(slot)
                if slot not in owner or place(owner[slot], seen, level):
                    owner[slot] = k
                    return True
        return False

    for level in range(1, cap + 1):
        for k in range(len(tables)):
            if k not in owner.values():
                place(k, set(), level)
    if len(owner) < len(tables):
        return None
    dealer: list = [None] * len(tables)
    for (p, _), k in owner.items():
        dealer[k] = p
    return dealer


def _swiss(players: list[Player], totals: Mapping[Player, int], missed: Counter) -> tuple[list[tuple], tuple]:
    """Top four together, then the next four, …; the sit-outs are those who missed fewest
    rounds (among them the lowest totals, so the top tables stay whole)."""
    ranked = sorted(players, key=lambda p: (-totals.get(p, 0), _key(p)))
    sitting = len(players) % TABLE
    by_need = sorted(ranked, key=lambda p: (missed[p], -ranked.index(p)))
    sitting_out = tuple(by_need[:sitting])
    playing = [p for p in ranked if p not in sitting_out]
    return [tuple(playing[k : k + TABLE]) for k in range(0, len(playing), TABLE)], sitting_out


def seat_given_tables(tables: Sequence[tuple], *, played: Sequence[Round] = (), sitting_out: Iterable = ()) -> Round:
    """Tables chosen by hand, players in seat order N, E, S, W: only the first dealer is chosen
    (who at the table dealt first least often this evening; the earliest seat on a tie)."""
    dealt: Counter = Counter(table.dealer for one in played for table in one.tables)
    chosen = []
    for players in tables:
        if len(players) != TABLE or len(set(players)) != TABLE:
            raise SeatingError("bad_table", f"a table seats {TABLE} different players", players)
        dealer = min(range(TABLE), key=lambda k: (dealt[players[k]], k))
        chosen.append(Table(tuple(players), SEATS[dealer]))
    return Round(tuple(chosen), tuple(sorted(sitting_out, key=_key)))


def _seat_tables(groups: Sequence[tuple], sitting_out: tuple, played: Sequence[Round], seed: int) -> Round:
    """Seats and first dealer for each group: the first dealer is the one who dealt first least
    often this evening, then each goes to the seat he sat in least; ties by the seed."""
    dealt: Counter = Counter(table.dealer for one in played for table in one.tables)
    sat: Counter = Counter((p, seat) for one in played for table in one.tables for seat, p in table.seats().items())
    rng = random.Random(seed)
    tables = []
    for group in groups:
        best, best_cost = None, None
        for order in itertools.permutations(sorted(group, key=_key)):
            for dealer in SEATS:
                cost = (dealt[order[SEATS.index(dealer)]], sum(sat[p, s] for p, s in zip(order, SEATS)), rng.random())
                if best_cost is None or cost < best_cost:
                    best, best_cost = Table(tuple(order), dealer), cost
        tables.append(best)
    return Round(tuple(tables), tuple(sorted(sitting_out, key=_key)))
