"""The annotated deal (games/engine/annotation.py): what each card cost, its grade, and that the
annotation adds up to the deal's result (R20–R22, R27 included).

Deals are played by hypothesis (kind, options, sold leads, stacked hands for Max) and annotated
from a late position, where the search is exact and fast, so that the sums are exact.
"""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import examples
from support.played_deals import played_deals

from games.engine import DealState, Ruleset, Seat
from games.engine.analysis import Interval
from games.engine.annotation import (
    BEST,
    BLUNDER,
    ENGINE_VERSION,
    INACCURACY,
    MISTAKE,
    annotate,
    engine_version,
    grade_of,
    grade_of_bounds,
)
from games.engine.ruleset import Kind
from games.engine.schedule import ScheduledDeal
from games.engine.simulate import choose_card, deal_hands

SEATS = tuple(Seat)
PROPERTY = settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(played_deals(), st.integers(32, 52))
def test_each_seats_result_is_his_guaranteed_minus_his_costs_plus_what_the_others_gave_him(deal, start):
    notes = annotate(deal, budget=30, start=start)
    assert notes.exact
    points = deal.settlement().points
    for seat in SEATS:
        own = sum(n.cost.low for n in notes.notes if n.seat == seat)
        given_him = sum(
            notes.guaranteed(seat, n.play + 1).low - notes.guaranteed(seat, n.play).low
            for n in notes.notes
            if n.seat != seat
        )
        assert notes.guaranteed(seat, start).low - own + given_him == points[seat]


@PROPERTY
@given(played_deals(), st.integers(36, 51))
def test_a_card_never_gains_its_player_anything_and_the_others_cards_never_cost_him(deal, start):
    notes = annotate(deal, budget=30, start=start)
    for n in notes.notes:
        assert n.cost.exact and n.cost.low >= 0
        assert n.cost.low == notes.guaranteed(n.seat, n.play).low - notes.guaranteed(n.seat, n.play + 1).low
        assert n.grade == grade_of(n.cost.low)
        assert (n.best == n.card) == (n.cost.low == 0)
        assert n.best_value.low - n.value.low == n.cost.low
        for other in SEATS:
            if other != n.seat:
                assert notes.guaranteed(other, n.play + 1).low >= notes.guaranteed(other, n.play).low


def test_the_grades_split_the_cost_at_1_10_and_30_points():
    assert [grade_of(c) for c in (0, 1, 9, 10, 29, 30, 130)] == [
        BEST,
        INACCURACY,
        INACCURACY,
        MISTAKE,
        MISTAKE,
        BLUNDER,
        BLUNDER,
    ]


def test_a_cost_known_only_by_bounds_is_graded_only_when_both_bounds_share_a_grade():
    assert grade_of_bounds(Interval(30, 90)) == BLUNDER
    assert grade_of_bounds(Interval(12, 20)) == MISTAKE
    assert grade_of_bounds(Interval(0, 4)) is None
    assert grade_of_bounds(Interval(8, 40)) is None
    assert grade_of_bounds(Interval(0, 0)) == BEST


def test_from_the_first_card_on_a_tiny_budget_every_grade_given_is_proven():
    rng = random.Random(7)
    deal = DealState(ScheduledDeal(1, Kind.ROZBOJNIK, Seat.W, Seat.N, False), Ruleset.from_options({}), deal_hands(rng))
    while not deal.is_over:
        deal = deal.play(choose_card(rng, deal, "random"))
    rough = annotate(deal, nodes=100)
    exact_late = annotate(deal, budget=30, start=40)
    assert not rough.exact
    for n in rough.notes:
        if n.grade is None:
            assert grade_of(n.cost.low) != grade_of(n.cost.high)
    for n in rough.notes[40:]:
        assert n.cost.low <= exact_late.notes[n.play - 40].cost.low <= n.cost.high


def test_the_engine_version_is_a_digest_of_the_engines_sources():
    assert engine_version() == ENGINE_VERSION and len(ENGINE_VERSION) == 16


def test_with_a_budget_of_nodes_a_deal_gets_the_same_annotation_each_time():
    rng = random.Random(11)
    deal = DealState(ScheduledDeal(1, Kind.ODGRYWKA, Seat.N, Seat.N, False), Ruleset.from_options({}), deal_hands(rng))
    while not deal.is_over:
        deal = deal.play(choose_card(rng, deal, "random"))

    first, second = (annotate(deal, nodes=3_000, start=24) for _ in range(2))

    assert not first.exact
    assert first.as_json() == second.as_json()
