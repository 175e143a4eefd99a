"""Issue 27 item 1 (games/engine/analysis.py, docs/analysis.md "From the first card"): a budget of
nodes that makes an analysis deterministic, and an ``Analyser`` that keeps its tables from one
position of a deal to the next — both give exactly the answers of a fresh, unhurried search,
or bounds that hold them."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import examples
from test_engine_analysis import SEATS, brute_force, played_deals, values

from games.engine import DealState, Ruleset, Seat
from games.engine.analysis import (
    Analyser,
    Interval,
    SearchOptions,
    analyse,
    analyse_deal_positions,
    deal_position,
    search_bounds,
)
from games.engine.ruleset import Kind
from games.engine.schedule import ScheduledDeal
from games.engine.simulate import choose_card, deal_hands

MODES = ("worst", "best", "guaranteed")


def assert_holds(bounded, exact):
    """Every interval of ``bounded`` holds the exact value ``exact`` gives for it."""
    assert exact.exact
    for seat in SEATS:
        for mode in MODES:
            interval, value = getattr(bounded.seat(seat), mode), getattr(exact.seat(seat), mode).low
            assert interval.low <= value <= interval.high, (seat, mode)
    for (card, interval), (same, value) in zip(bounded.cards, exact.cards, strict=True):
        assert card == same and interval.low <= value.low <= interval.high, card


def played(seed: int, kind: Kind) -> DealState:
    rng = random.Random(seed)
    deal = DealState(ScheduledDeal(1, kind, Seat.W, Seat.N, False), Ruleset(), deal_hands(rng))
    while not deal.is_over:
        deal = deal.play(choose_card(rng, deal, "random"))
    return deal


@settings(max_examples=examples(20), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(played_deals(), st.integers(8, 24), st.integers(0, 30_000))
def test_with_a_node_budget_the_same_position_gets_the_same_answer_and_its_bounds_hold(deal, back, nodes):
    position = deal_position(deal, 52 - back)
    first, second = analyse(position, nodes=nodes), analyse(position, nodes=nodes)
    assert first.as_json() == second.as_json() and first.nodes == second.nodes
    assert_holds(first, analyse(position, budget=60))


def test_a_node_budget_reads_no_clock_so_a_zero_seconds_budget_does_not_cut_it():
    position = deal_position(played(11, Kind.ROZBOJNIK), 40)
    by_nodes = analyse(position, budget=0.0, nodes=10_000_000)
    assert by_nodes.exact
    assert by_nodes.as_json() == analyse(position, budget=60).as_json()


def test_past_its_node_budget_at_the_first_card_it_still_gives_bounds_that_hold_the_points_played():
    deal = played(5, Kind.ROZBOJNIK)
    analysis = analyse(deal_position(deal, 0), nodes=20_000)
    assert not analysis.exact
    points = deal.settlement().points
    for seat in SEATS:  # the line actually played is one of the continuations
        row = analysis.seat(seat)
        assert row.worst.low <= points[seat] <= row.best.high


def test_past_its_budget_probes_of_the_exact_game_narrow_the_worst_and_best_ranges():
    """Round ten (``probe_bounds``): a search cut short has its bounds narrowed by zero-window
    probes that read the table its exact attempt filled; a ``worst`` or ``best`` search (all
    four playing one way) finds its line at once. At a rozbójnik's first card the ranges are
    much narrower than the depth-limited search's alone, and still hold the points played."""
    deal = played(7, Kind.ROZBOJNIK)
    position, points = deal_position(deal, 0), deal.settlement().points
    probed = analyse(position, nodes=50_000)
    deepened = analyse(position, nodes=50_000, options=SearchOptions(probe_bounds=False))

    def width(analysis):
        return sum(
            getattr(analysis.seat(s), m).high - getattr(analysis.seat(s), m).low for s in SEATS for m in MODES[:2]
        )

    assert not probed.exact and 4 * width(probed) < 3 * width(deepened)
    for seat in SEATS:
        row = probed.seat(seat)
        assert row.worst.low <= points[seat] <= row.best.high and row.worst.low <= row.guaranteed.low


@settings(max_examples=examples(15), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(played_deals(), st.integers(4, 20))
def test_an_analyser_kept_from_position_to_position_gives_each_the_fresh_searchs_answer(deal, back):
    analyser = Analyser()
    for plays in range(52 - back, 53):
        position = deal_position(deal, plays)
        assert analyser.analyse(position, budget=60).as_json() == analyse(position, budget=60).as_json(), plays


@settings(max_examples=examples(15), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(played_deals(), st.integers(12, 24), st.integers(0, 20_000))
def test_an_analyser_on_a_node_budget_gives_bounds_that_hold_at_every_position(deal, back, nodes):
    analyser = Analyser()
    for plays in range(52 - back, 53, 3):
        position = deal_position(deal, plays)
        assert_holds(analyser.analyse(position, nodes=nodes), analyse(position, budget=60))


def test_an_analyser_given_another_deal_starts_afresh():
    first, second = played(1, Kind.ROZBOJNIK), played(2, Kind.ODGRYWKA)
    analyser = Analyser()
    analyser.analyse(deal_position(first, 40), budget=60)
    position = deal_position(second, 40)
    assert analyser.analyse(position, budget=60).as_json() == analyse(position, budget=60).as_json()


def test_every_position_of_a_deal_is_analysed_in_order():
    deal = played(3, Kind.ODGRYWKA)
    short = deal_position(deal, 44)  # a deal stopped after 44 cards: positions 0 to 44
    found = analyse_deal_positions(short, nodes=2_000)
    assert len(found) == 45
    assert [a.to_play for a in found] == [deal_position(short, n).to_play for n in range(45)]
    assert found[-1].as_json() == analyse(short, budget=60).as_json()


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(played_deals(), st.integers(0, 12))
def test_with_another_taker_off_it_still_equals_the_brute_force_enumeration(deal, back):
    """R20: the bound that a ×3 line has another seat take a trick is switchable; off, the
    search still finds the enumeration's values (on, the other tests check the same)."""
    position = deal_position(deal, 52 - back)
    analysis = analyse(position, budget=60, options=SearchOptions(another_taker=False))
    expected = brute_force(position)
    assert analysis.exact
    for seat in SEATS:
        assert values(analysis, seat) == expected[seat], seat


def test_an_analyser_past_its_table_limit_starts_afresh_with_the_same_answers():
    deal = played(4, Kind.ROZBOJNIK)
    small, unlimited = Analyser(max_entries=50), Analyser()
    for plays in range(36, 53, 4):
        position = deal_position(deal, plays)
        assert small.analyse(position, budget=60).as_json() == unlimited.analyse(position, budget=60).as_json()
    assert small.entries() < unlimited.entries()  # it dropped the earlier positions' tables


def test_a_seat_that_can_duck_every_trick_left_is_bounded_below_by_its_points_so_far():
    """R11, R20: in this rozbójnik, 28 cards played, S is not on lead and its lowest card of each
    suit is under the others' lowest, its second under their second, …: it can duck the rest,
    so it loses at most its points so far, doubled (E has no trick yet, R20). The bound is the
    exact guaranteed value the search finds with it off."""
    position = deal_position(played(13, Kind.ROZBOJNIK), 28)
    on = search_bounds(position, Seat.S, "guaranteed")
    off = search_bounds(position, Seat.S, "guaranteed", SearchOptions(ducking=False))
    exact = analyse(position, budget=60, options=SearchOptions(ducking=False))

    assert position.to_play != Seat.S
    assert off.low < on.low == exact.seat(Seat.S).guaranteed.low == -20
    assert analyse(position, budget=60).as_json() == exact.as_json()


def test_a_leader_above_every_other_card_of_its_suits_takes_every_trick_left():
    """R11, R16, R17: in this odgrywka, 28 cards played, N leads and its lowest card of each suit
    is above every card of that suit the others hold: whatever it leads no one can overtake, so
    it takes all six tricks left. Every seat's every value is then known before any card is
    searched, and is the value the search finds with the idea off."""
    position = deal_position(played(75, Kind.ODGRYWKA), 28)
    exact = analyse(position, budget=60, options=SearchOptions(claims=False))

    assert position.to_play == Seat.N
    for seat in SEATS:
        for mode in MODES:
            value = getattr(exact.seat(seat), mode).low
            assert search_bounds(position, seat, mode) == Interval(value, value), (seat, mode)
    off = search_bounds(position, Seat.E, "guaranteed", SearchOptions(claims=False))
    assert off.low < off.high
    assert analyse(position, budget=60).as_json() == exact.as_json()
