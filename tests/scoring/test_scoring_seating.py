"""The evening seating (scoring/seating.py): the known optima, and properties of every seating.

Known optima (not timed here; benchmarks/seating.py prints the times):
- 16 players × 5 rounds: no pair meets twice (the affine plane of order 4 exists).
- 12 players × 3 rounds: 6 repeat meetings, and no fewer exist: in every round after the
  first, each of the 3 tables seats 4 players who sat at only 3 tables the round before, so
  two of them met already (pigeonhole): ≥ 3 repeats in round 2 and ≥ 3 more in round 3 (each
  of its tables repeats a pair of round 1 and one of round 2, or one pair of both, a third time).
- 13 players × 4 rounds: four different players sit out. No seating without repeats exists:
  the nine who play every round would meet all twelve others once, so the 72 meetings would
  cover every pair but the six among the four who sit out exactly once; with those four as a
  thirteenth block that is a 2-(13,4,1) design, the projective plane of order 3, in which any
  two blocks meet — yet the three tables of a round are disjoint. At least 7 are needed: for
  any two rounds r ≠ r', the two tables of r' without r's sit-out seat 4 players from the 3
  tables of r, so each holds a pair that met in r: ≥ 12 (pair, two rounds) incidences, and a
  pair meeting k times gives C(k, 2) of them for k − 1 repeats; 6 repeats would need two pairs
  together all evening, each at its own table in every round, which CP-SAT refutes at once.
  The search reaches 9 in its budget (as CP-SAT alone does in two minutes): the optimum is 7–9.
"""

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import examples

from scoring.seating import (
    SEATS,
    SeatingError,
    missed_rounds,
    pair_counts,
    plan_evening,
    repeat_meetings,
    seat_round,
    sit_out_spread,
)

QUICK = 0.3  # a small search budget: the properties are about validity, not quality


def test_it_seats_16_players_for_5_rounds_with_no_pair_meeting_twice():
    plan = plan_evening(players=range(16), rounds=5, seed=0)

    assert plan.repeats == 0
    assert max(pair_counts(plan.rounds).values()) == 1
    assert len(pair_counts(plan.rounds)) == 120  # everyone met everyone: the affine plane


def test_it_reaches_the_affine_plane_round_by_round_too():
    played = []
    for left in range(5, 0, -1):
        played.append(seat_round(present=range(16), played=played, rounds_left=left, seed=3).rounds[0])

    assert repeat_meetings(played) == 0


def test_it_seats_12_players_for_3_rounds_with_the_fewest_possible_repeats():
    plan = plan_evening(players=range(12), rounds=3, seed=0)

    assert plan.repeats == 6  # the lower bound (module docstring)


def test_it_sends_four_different_players_out_of_13_over_4_rounds():
    plan = plan_evening(players=range(13), rounds=4, seed=0, time_budget=4.0)  # room on a loaded machine

    assert sorted(len(one.sitting_out) for one in plan.rounds) == [1, 1, 1, 1]
    assert len({p for one in plan.rounds for p in one.sitting_out}) == 4
    assert plan.repeats <= 9  # what the search reaches in its budget; 0 is impossible (docstring)


def test_it_refuses_fewer_than_four_players():
    with pytest.raises(SeatingError) as raised:
        seat_round(present=[1, 2, 3])

    assert raised.value.code == "too_few_players"


def test_it_refuses_a_player_listed_twice():
    with pytest.raises(SeatingError) as raised:
        seat_round(present=[1, 2, 3, 4, 2])

    assert (raised.value.code, raised.value.players) == ("duplicate_player", (2,))


def test_it_avoids_the_pairs_of_earlier_evenings_when_it_can():
    past = {pair: 1 for pair in itertools.combinations(range(4), 2)}  # 0–3 played together last week

    plan = plan_evening(players=range(16), rounds=1, past_pairs=past, seed=0)

    assert plan.past_repeats == 0
    assert all(len(set(table.players) & {0, 1, 2, 3}) == 1 for table in plan.rounds[0].tables)


def test_it_does_not_send_a_late_arrival_out_at_once():
    played = [seat_round(present=range(8), seed=0).rounds[0]]

    second = seat_round(present=[*range(8), 8], played=played, seed=0).rounds[0]

    assert second.sitting_out != (8,)


def test_swiss_seating_puts_the_top_four_together():
    played = [seat_round(present=range(8), seed=0).rounds[0]]
    totals = {p: 100 - 10 * p for p in range(8)}  # 0 leads, 7 trails

    second = seat_round(present=range(8), played=played, totals=totals, seed=0).rounds[0]

    assert sorted(set(table.players) for table in second.tables) == [{0, 1, 2, 3}, {4, 5, 6, 7}]


def test_nobody_deals_first_in_every_round_of_a_16_player_evening():
    plan = plan_evening(players=range(16), rounds=5, seed=0)
    dealt = [[table.dealer for table in one.tables] for one in plan.rounds]

    assert not set.intersection(*map(set, dealt))
    assert max(sum(p in one for one in dealt) for p in range(16)) <= 2


# --- properties -------------------------------------------------------------------------------

an_evening = st.fixed_dictionaries(
    {
        "players": st.integers(4, 19),
        "rounds": st.integers(1, 4),
        "seed": st.integers(0, 2**16),
    }
)


@settings(max_examples=examples(25), deadline=None)
@given(evening=an_evening)
def test_every_present_player_sits_at_one_table_of_four_or_sits_out(evening):
    plan = plan_evening(
        players=range(evening["players"]), rounds=evening["rounds"], seed=evening["seed"], time_budget=QUICK
    )

    for one in plan.rounds:
        assert all(len(table.players) == 4 for table in one.tables)
        everyone = one.seated() + list(one.sitting_out)
        assert sorted(everyone) == list(range(evening["players"]))
        assert len(one.sitting_out) == evening["players"] % 4


@settings(max_examples=examples(25), deadline=None)
@given(evening=an_evening)
def test_nobody_sits_out_twice_before_everyone_has_once(evening):
    players, played = list(range(evening["players"])), []
    for left in range(evening["rounds"], 0, -1):
        played.append(
            seat_round(
                present=players, played=played, rounds_left=left, seed=evening["seed"], time_budget=QUICK
            ).rounds[0]
        )
        assert sit_out_spread(players, played) <= 1


@settings(max_examples=examples(15), deadline=None)
@given(evening=an_evening, late=st.integers(1, 3))
def test_those_who_sit_out_have_missed_no_more_rounds_than_those_who_play(evening, late):
    """Late arrivals join after round 1; their missed round counts as sat out."""
    first = list(range(evening["players"]))
    played = [seat_round(present=first, seed=evening["seed"], time_budget=QUICK).rounds[0]]
    present = first + [100 + k for k in range(late)]

    one = seat_round(present=present, played=played, seed=evening["seed"], time_budget=QUICK).rounds[0]

    missed = missed_rounds(present, played)
    if one.sitting_out:
        assert max(missed[p] for p in one.sitting_out) <= min(missed[p] for p in one.seated())


@settings(max_examples=examples(15), deadline=None)
@given(evening=an_evening)
def test_the_same_seed_gives_the_same_seating(evening):
    kwargs = {
        "players": range(evening["players"]),
        "rounds": evening["rounds"],
        "seed": evening["seed"],
        "time_budget": QUICK,
    }

    assert plan_evening(**kwargs).rounds == plan_evening(**kwargs).rounds


@settings(max_examples=examples(15), deadline=None)
@given(evening=an_evening)
def test_the_first_dealer_is_whoever_at_the_table_dealt_first_least(evening):
    players, played = list(range(evening["players"])), []
    for left in range(evening["rounds"], 0, -1):
        one = seat_round(
            present=players, played=played, rounds_left=left, seed=evening["seed"], time_budget=QUICK
        ).rounds[0]
        dealt = [table.dealer for earlier in played for table in earlier.tables]
        for table in one.tables:
            assert table.first_dealer in SEATS
            assert dealt.count(table.dealer) == min(dealt.count(p) for p in table.players)
        played.append(one)
