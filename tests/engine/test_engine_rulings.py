"""Arbiters' rulings in the engine: a voided deal and an adjusted score (issue 5; R6, R7)."""

import json
import random

import pytest

from games.engine import MatchState, Ruleset, Seat, errors
from games.engine.match import restore, snapshot
from games.engine.simulate import choose_card, deal_hands


def play_deal(state: MatchState, rng: random.Random, stacked=None) -> MatchState:
    state = state.start_deal(deal_hands(rng, stacked))
    while state.deal is not None:
        seat = state.deal.to_play
        strategy = "high" if seat == stacked else "random"
        state = state.play(choose_card(rng, state.deal, strategy, wobble=0))
    return state


def test_voiding_the_latest_deal_removes_its_points_and_schedules_a_replacement_with_the_same_dealer():
    rng = random.Random(4)
    state = play_deal(MatchState.start(Ruleset.from_options({"regular_deals": ["R", "O"]}), Seat.S), rng)
    voided = state.results[-1]
    ruled = state.void_last_deal()
    assert ruled.totals == (0, 0, 0, 0)
    assert ruled.results[-1].voided and ruled.results[-1].points == voided.points  # played result stays visible
    due = ruled.next_deal
    assert (due.number, due.kind, due.dealer, due.leader) == (2, voided.kind, voided.dealer, voided.leader)
    after = play_deal(ruled, rng)
    assert after.next_deal.dealer == Seat.W  # R6 rotation resumes as if the replacement were deal 1


def test_voiding_a_deal_cancels_the_compensating_deals_it_required():
    rng = random.Random(1)
    state = MatchState.start(Ruleset.from_options({"regular_deals": ["R", "O"]}), Seat.N)
    state = play_deal(state, rng, stacked=Seat.W)  # Max for W: two odgrywki due (R21)
    assert state.results[-1].kreski[Seat.W] == 2 and len(state.schedule.pending) == 3
    ruled = state.void_last_deal()
    assert ruled.schedule.pending[0] == (state.results[-1].kind, None)
    assert len(ruled.schedule.pending) == 2  # the replacement, then the regular odgrywka


def test_only_the_latest_finished_deal_can_be_voided_and_only_before_the_next_starts():
    rng = random.Random(2)
    state = MatchState.start(Ruleset.from_options({"regular_deals": ["R", "O"]}), Seat.N)
    with pytest.raises(errors.RulingNotAllowed):
        state.void_last_deal()
    state = play_deal(state, rng)
    started = state.start_deal(deal_hands(rng))
    with pytest.raises(errors.RulingNotAllowed) as caught:
        started.void_last_deal()
    assert caught.value.code == "ruling_not_allowed"


def test_an_adjusted_score_counts_in_the_totals_beside_the_played_points():
    rng = random.Random(3)
    state = play_deal(MatchState.start(Ruleset.from_options({"regular_deals": ["R", "O"]}), Seat.E), rng)
    played = state.results[0].points
    ruled = state.adjust_deal(1, [-100, -10, -10, -10])
    assert ruled.totals == (-100, -10, -10, -10)
    entry = ruled.summary()["deals"][0]
    assert entry["points"] == dict(zip("NESW", played))
    assert entry["adjusted_points"] == {"N": -100, "E": -10, "S": -10, "W": -10}
    with pytest.raises(errors.RulingNotAllowed):
        state.adjust_deal(2, [0, 0, 0, 0])
    with pytest.raises(errors.RulingNotAllowed):
        state.adjust_deal(1, [0, 0, 0])


def test_rulings_survive_a_snapshot_round_trip():
    rng = random.Random(5)
    state = play_deal(MatchState.start(Ruleset.from_options({"regular_deals": ["R", "O"]}), Seat.N), rng)
    state = play_deal(state.void_last_deal(), rng).adjust_deal(2, [1, 2, 3, -6])
    copy = restore(json.loads(json.dumps(snapshot(state))))
    assert copy.summary() == state.summary()
    assert copy.next_deal == state.next_deal
