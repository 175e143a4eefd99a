"""Seating a club evening: who sits at which table of four in each round, in which seat, and
who deals first. Pure Python over plain values (player ids); no Django.

What a seating optimises, in this order:

1. *fairness of sit-outs* (a hard rule): when the players present are not a multiple of four,
   those who sit out a round are taken from those who have played least this evening —
   nobody sits out twice before everyone has sat out once (a late arrival's missed rounds
   count as sat out, so he is not sent away again at once);
2. *no pair meets twice in the evening*: the number of repeat meetings (a pair that met
   ``k`` times counts ``k - 1``) is minimised;
3. *few repeats against the season's earlier evenings*: the pairs' earlier meetings (a
   pair-count matrix the caller gives) weigh on who meets again.

Tables are chosen by a combinatorial search that plans all the rounds still to come at once
(with the players present now; the first round is taken, the next call plans again from what
was actually played), which is how complete designs are reached — 16 players × 5 rounds with
no pair twice is the affine plane of order 4. OR-Tools CP-SAT first looks for rounds with no
repeat at all; when there are none (12 × 3 and 13 × 4 have none: see
tests/scoring/test_scoring_seating.py) a tabu search and CP-SAT minimise the repeats. A big
club (past ``MODEL_CLAUSES``) is planned a few rounds at a time, or by the tabu search alone.
The search is bounded by a time budget and deterministic for a seed: one worker, a fixed
``random_seed`` and a *deterministic* time limit (a wall-clock cap three times longer only
guards against a starved machine). The seed also shuffles who is who before the search, so
another seed gives another, equally good, seating.

Seats (N, E, S, W) and the first dealer are then given table by table: the first dealer is the
player of the table who has dealt first least often this evening, and everyone goes to the seat
he has had least often (ties broken by the seed).

``totals`` (the evening's running balances) turns on Swiss seating for round 2 and later: the
top four sit together, then the next four, and so on (sit-outs still go round fairly).
"""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from .seating_tabu import Tabu, ordered

SEATS = ("N", "E", "S", "W")  # R1 order
TABLE = 4  # Kierki is played four at a table, always
MODEL_CLAUSES = 60_000  # the CP-SAT model's size limit (40 players × 6 rounds: 46,800); past it, fewer rounds
# are planned at once, and a single round past it (about 70 players) is seated by the tabu search alone
TABU_STEPS_PER_SECOND = 400  # the tabu search's steps per second of budget (a count: deterministic)
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


@dataclass(frozen=True)
class Plan:
    """What the search returned: the rounds, and how good they are."""

    rounds: tuple[Round, ...]
    repeats: int  # repeat meetings within the evening (played rounds included)
    past_repeats: int  # meetings in the planned rounds of pairs that met on earlier evenings
    optimal: bool  # the search proved nothing better exists (within its model)
    status: str = ""  # the solver's status name, for the curious


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


def missed_rounds(players: Iterable[Player], rounds: Sequence[Round]) -> Counter:
    """For each player, the rounds of ``rounds`` he did not play (sat out, or was not there)."""
    played = Counter(p for one in rounds for p in one.seated())
    return Counter({p: len(rounds) - played[p] for p in players})


def sit_out_spread(players: Iterable[Player], rounds: Sequence[Round]) -> int:
    """Most rounds missed minus fewest, over ``players``: 1 or 0 when sit-outs went round."""
    missed = missed_rounds(players, rounds)
    return max(missed.values()) - min(missed.values()) if missed else 0


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
) -> Plan:
    """Seat the next round of an evening. ``played``: its rounds so far; ``rounds_left``: how
    many rounds remain, this one included (they are planned together; the plan's first round
    is the one to play); ``totals``: the running balances, for Swiss seating (from round 2)."""
    players = _checked(present)
    if totals is not None and played:
        groups, out = _swiss(players, totals, missed_rounds(players, played))
        rounds = (_seat_tables(groups, out, played, seed),)
        return Plan(rounds, repeat_meetings([*played, *rounds]), _past(rounds, past_pairs), False, "swiss")
    return _plan(Problem(players, past_pairs or {}, seed, time_budget), played, max(1, rounds_left), wanted=1)


def plan_evening(
    *,
    players: Iterable[Player],
    rounds: int,
    past_pairs: Mapping[Pair, int] | None = None,
    seed: int = 0,
    time_budget: float = 2.0,
) -> Plan:
    """All the rounds of an evening whose players are known and stay."""
    return _plan(Problem(_checked(players), past_pairs or {}, seed, time_budget), (), rounds)


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


@dataclass(frozen=True)
class Problem:
    """What a plan is asked for, besides its rounds: the players present, the pairs' meetings
    on the season's earlier evenings, the seed and the time budget (seconds)."""

    players: Sequence[Player]
    past_pairs: Mapping[Pair, int]
    seed: int
    time_budget: float


def _plan(problem: Problem, played: Sequence[Round], count: int, *, wanted: int | None = None) -> Plan:
    """Plan ``count`` rounds together and return the first ``wanted`` (all by default); a model
    too big to plan at once is planned round by round."""
    wanted = count if wanted is None else wanted
    order = list(problem.players)
    random.Random(problem.seed).shuffle(order)  # the seed decides who is who in the search
    shuffled = replace(problem, players=order)
    rounds: list[Round] = []
    optimal, statuses = True, []
    while len(rounds) < wanted:
        horizon = _horizon(len(order), count - len(rounds))
        groupings, proved, status = Search(shuffled, [*played, *rounds], horizon).run()
        take = groupings[: wanted - len(rounds)]
        for groups, out in take:
            rounds.append(_seat_tables(groups, out, [*played, *rounds], problem.seed + len(played) + len(rounds)))
        optimal, statuses = optimal and proved, [*statuses, status]
    status = statuses[0] if len(set(statuses)) == 1 else "/".join(dict.fromkeys(statuses))
    past = _past(rounds, problem.past_pairs)
    return Plan(tuple(rounds), repeat_meetings([*played, *rounds]), past, optimal, status)


def _horizon(players: int, rounds: int) -> int:
    """How many rounds to plan at once: as many of ``rounds`` as keep the model (a clause per
    pair, round and table) within ``MODEL_CLAUSES``, at least one."""
    per_round = players * (players - 1) // 2 * (players // TABLE)
    return max(1, min(rounds, MODEL_CLAUSES // max(1, per_round)))


class Search:
    """The CP-SAT model of ``count`` rounds for the problem's players (index i = ``players[i]``).

    x[i, r, t]: player i sits at table t in round r; out[i, r]: he sits out round r;
    meet[i, j, r]: i and j share a table in round r (forced by x[i,r,t] ∧ x[j,r,t] → meet);
    over[i, j] ≥ (evening meetings of i and j so far) + Σ_r meet[i, j, r] − 1: the pair's
    repeats. Minimise  W · Σ over + Σ past(i, j) · Σ_r meet[i, j, r]  with W above any
    possible second term (fewest repeats first, then fewest repeats of earlier evenings)."""

    def __init__(self, problem: Problem, played: Sequence[Round], count: int):
        players, past_pairs = list(problem.players), problem.past_pairs
        self.players, self.count, self.seed, self.budget = players, count, problem.seed, problem.time_budget
        self.n = len(players)
        self.tables = self.n // TABLE
        self.sitting = self.n - TABLE * self.tables
        self.met = pair_counts(played)
        self.past = {key: c for key, c in past_pairs.items() if c > 0}
        self.missed = missed_rounds(players, played)

    def run(self) -> tuple[list[tuple[list[tuple], tuple]], bool, str]:
        """1. CP-SAT looks for rounds with no repeat at all (a hard constraint: quick to satisfy
        when a design exists, quick to refute when none does); 2. failing that, a tabu search
        from the greedy rounds lowers the repeats; 3. CP-SAT, hinted with its rounds, minimises
        them with the rest of the budget (and may prove the result optimal)."""
        from ortools.sat.python import cp_model  # imported here: importing the package stays cheap

        if self.n * (self.n - 1) // 2 * self.tables * self.count > MODEL_CLAUSES:  # too big for the model
            return self._tabu(self._greedy(), iterations=int(TABU_STEPS_PER_SECOND * self.budget)), False, "TABU"
        if not self._no_repeat_impossible():
            found = self._solve(cp_model, repeats_allowed=False, budget=self.budget * 0.5)
            if found is not None and found[1] in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                return found[0], found[1] == cp_model.OPTIMAL, found[2]
        best = self._tabu(self._greedy(), iterations=int(TABU_STEPS_PER_SECOND * self.budget * 0.25))
        found = self._solve(cp_model, repeats_allowed=True, budget=self.budget * 0.25, hint=best)
        if found is None or self._cost(found[0]) > self._cost(best):
            return best, False, "TABU"
        return found[0], found[1] == cp_model.OPTIMAL, found[2]

    def _solve(self, cp_model, *, repeats_allowed: bool, budget: float, hint=None):
        model = cp_model.CpModel()
        n, R, T = self.n, self.count, self.tables
        x = {(i, r, t): model.NewBoolVar(f"x{i}_{r}_{t}") for i in range(n) for r in range(R) for t in range(T)}
        out = {(i, r): model.NewBoolVar(f"o{i}_{r}") for i in range(n) for r in range(R)}
        for r in range(R):
            for i in range(n):
                model.AddExactlyOne([x[i, r, t] for t in range(T)] + [out[i, r]])
            for t in range(T):
                model.Add(sum(x[i, r, t] for i in range(n)) == TABLE)
            model.Add(sum(out[i, r] for i in range(n)) == self.sitting)
            self._break_table_symmetry(model, x, r)
        if self.sitting:
            self._fair_sit_outs(model, out)
        if self._players_interchangeable():
            self._fix_first_round(model, x, out)
        objective = self._meetings(model, x, repeats_allowed)
        if objective is not None:
            model.Minimize(objective)
        if hint is not None:
            self._hint(model, x, out, hint)

        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.random_seed = self.seed % (2**31)
        solver.parameters.max_deterministic_time = budget
        solver.parameters.max_time_in_seconds = budget * 3
        status = solver.Solve(model)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return (
                None
                if status != cp_model.INFEASIBLE
                else ([], status, solver.StatusName(status), solver.deterministic_time)
            )
        rounds = []
        for r in range(R):
            groups = [tuple(self.players[i] for i in range(n) if solver.BooleanValue(x[i, r, t])) for t in range(T)]
            sitting_out = tuple(self.players[i] for i in range(n) if solver.BooleanValue(out[i, r]))
            rounds.append((groups, sitting_out))
        return rounds, status, solver.StatusName(status), solver.deterministic_time

    def _break_table_symmetry(self, model, x, r: int) -> None:
        """Tables are interchangeable: number them by their lowest player (value precedence):
        player i sits at table t only if one of the players before him opened table t − 1."""
        for i in range(self.n):
            for t in range(self.tables):
                if t > i:
                    model.Add(x[i, r, t] == 0)
                elif t > 0:
                    model.Add(x[i, r, t] <= sum(x[j, r, t - 1] for j in range(i)))

    def _fair_sit_outs(self, model, out) -> None:
        """Those who sit out round r have missed no more rounds than anyone who plays it: a
        level L_r lies between the two groups' counts."""
        top = max(self.missed.values(), default=0) + self.count
        if len(set(self.missed.values())) <= 1:  # implied, but it helps the search: k sit-outs each at most
            most = -(-self.sitting * self.count // self.n)
            for i in range(self.n):
                model.Add(sum(out[i, r] for r in range(self.count)) <= most)
        for r in range(self.count):
            level = model.NewIntVar(0, top, f"level{r}")
            for i, p in enumerate(self.players):
                missed = self.missed[p] + sum(out[i, s] for s in range(r))
                model.Add(missed <= level).OnlyEnforceIf(out[i, r])
                model.Add(missed >= level).OnlyEnforceIf(out[i, r].Not())

    def _players_interchangeable(self) -> bool:
        """Nothing tells the players apart (no round played, no earlier evening, the same
        rounds missed): any first round is as good as any other up to renaming."""
        return not self.met and not self.past and len(set(self.missed.values())) <= 1

    def _fix_first_round(self, model, x, out) -> None:
        """The first ``sitting`` players sit out, the next four take table 0, … (as the greedy
        rounds do, so that they stay a valid hint)."""
        for i in range(self.n):
            if i < self.sitting:
                model.Add(out[i, 0] == 1)
            else:
                model.Add(x[i, 0, (i - self.sitting) // TABLE] == 1)

    def _meetings(self, model, x, repeats_allowed: bool):
        """The pairs' meetings: at most one per pair over the evening (``repeats_allowed``
        off), or repeats counted and weighted. Returns the objective (None: nothing to
        minimise)."""
        n, R, T = self.n, self.count, self.tables
        weight = 1 + R * sum(self.past.get(pair(a, b), 0) for a, b in itertools.combinations(self.players, 2))
        repeats, past_terms = [], []
        for i, j in itertools.combinations(range(n), 2):
            key = pair(self.players[i], self.players[j])
            meets = []
            for r in range(R):
                meet = model.NewBoolVar(f"m{i}_{j}_{r}")
                for t in range(T):
                    model.AddBoolOr([x[i, r, t].Not(), x[j, r, t].Not(), meet])
                meets.append(meet)
            already = self.met.get(key, 0)
            if not repeats_allowed:
                model.Add(sum(meets) <= max(0, 1 - already))
            elif already + R > 1:
                over = model.NewIntVar(0, already + R, f"over{i}_{j}")
                model.Add(already + sum(meets) <= 1 + over)
                repeats.append(over)
            if self.past.get(key):
                past_terms.append(self.past[key] * sum(meets))
        if not repeats and not past_terms:
            return None
        return weight * sum(repeats) + sum(past_terms)

    def _greedy(self) -> list[tuple[list[tuple], tuple]]:
        """Fair sit-outs, then each table filled with whoever has met its players least: always
        valid, used as the search's hint and when the search found nothing in its time."""
        missed, met = Counter(self.missed), Counter(self.met)
        rounds, sat_out = [], []
        for _ in range(self.count):
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

    def _no_repeat_impossible(self) -> bool:
        """Quick refutations of an evening without repeats: someone would meet more players
        than are there, or a round's table draws four players from fewer than four tables of
        another round (pigeonhole)."""
        if self.sitting or self.met:  # (only fresh evenings of full tables are refuted here)
            return False
        return 3 * self.count > self.n - 1 or (self.tables < TABLE and self.count > 1)

    def _hint(self, model, x, out, rounds) -> None:
        """Hint ``rounds``, its tables numbered as the symmetry breaking wants them."""
        index = {p: i for i, p in enumerate(self.players)}
        for r, (groups, sitting_out) in enumerate(rounds):
            numbered = sorted(sorted(index[p] for p in group) for group in groups)
            for t, group in enumerate(numbered):
                for i in group:
                    model.AddHint(x[i, r, t], 1)
            for p in sitting_out:
                model.AddHint(out[index[p], r], 1)

    def _cost(self, rounds) -> tuple[int, int]:
        planned = [Round(tuple(Table(tuple(g)) for g in groups), out) for groups, out in rounds]
        counts = pair_counts(planned)
        repeats = sum(max(0, c + self.met.get(k, 0) - 1) - max(0, self.met.get(k, 0) - 1) for k, c in counts.items())
        return repeats, sum(c * self.past.get(k, 0) for k, c in counts.items())

    def _tabu(self, rounds, *, iterations: int):
        """``rounds`` improved by the tabu search (``scoring.seating_tabu``); sit-outs stay."""
        index = {p: i for i, p in enumerate(self.players)}
        known = [(index[a], index[b], c) for (a, b), c in self.met.items() if a in index and b in index]
        search = Tabu(
            [[[index[p] for p in g] for g in groups] for groups, _ in rounds],
            met=Counter({ordered(a, b): c for a, b, c in known}),
            past={ordered(index[a], index[b]): c for (a, b), c in self.past.items() if a in index and b in index},
            weight=1 + self.count * sum(self.past.values()),
            frozen=1 if self._players_interchangeable() else 0,  # the fixed first round stays
            seed=self.seed,
        )
        deadline = time.monotonic() + 3 * iterations / TABU_STEPS_PER_SECOND  # a starved machine's guard
        best = search.run(iterations, deadline)
        return [([tuple(self.players[i] for i in g) for g in best[r]], rounds[r][1]) for r in range(self.count)]


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
