"""The arbiter's analysis (games/engine/analysis.py) against a brute-force enumeration.

The enumeration below walks every legal continuation through the engine's public moves
(``legal_cards``, ``play``) and values each finished deal by its own settlement (R14–R27):
it shares no code with the solver's search. Positions come from deals played by hypothesis
with ducking, grabbing and random players, so zero-trick seats (R20, R22), Max (R21) and sold
leads (R26, R27) all occur.
"""

import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from support import examples
from support.played_deals import played_deals

from games.engine import DealState, Ruleset, Seat
from games.engine.analysis import SearchOptions, analyse, deal_position, sale_transfer, search_bounds
from games.engine.ruleset import Kind
from games.engine.schedule import ScheduledDeal
from games.engine.simulate import choose_card, deal_hands

SEATS = tuple(Seat)
PROPERTY = settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def brute_force(deal: DealState) -> dict[Seat, tuple[int, int, int]]:
    """Per seat (worst, best, guaranteed) by walking the whole tree of legal continuations."""
    if deal.is_over:
        points = deal.settlement().points
        return {s: (points[s], points[s], points[s]) for s in SEATS}
    children = [brute_force(deal.play(card)) for card in deal.legal_cards(deal.to_play)]
    result = {}
    for s in SEATS:
        own = [child[s][2] for child in children]
        result[s] = (
            min(c[s][0] for c in children),
            max(c[s][1] for c in children),
            max(own) if deal.to_play == s else min(own),
        )
    return result


def values(analysis, seat):
    row = analysis.seat(seat)
    return row.worst.low, row.best.high, row.guaranteed.low


@PROPERTY
@given(played_deals(), st.integers(0, 12))
def test_it_equals_a_brute_force_enumeration_with_three_tricks_or_fewer_left(deal, back):
    position = deal_position(deal, 52 - back)
    analysis = analyse(position, budget=60)
    expected = brute_force(position)
    assert analysis.exact
    for seat in SEATS:
        assert values(analysis, seat) == expected[seat], seat


@PROPERTY
@given(played_deals(), st.integers(1, 12))
def test_each_cards_value_is_the_guaranteed_value_right_after_it(deal, back):
    position = deal_position(deal, 52 - back)
    analysis = analyse(position, budget=60)
    seat = position.to_play
    assert sorted(str(c) for c, _ in analysis.cards) == sorted(str(c) for c in position.legal_cards(seat))
    for card, value in analysis.cards:
        assert value.exact and value.low == brute_force(position.play(card))[seat][2], card
    assert max(v.low for _, v in analysis.cards) == analysis.seat(seat).guaranteed.low


@PROPERTY
@given(played_deals(), st.integers(0, 20))
def test_worst_is_at_most_guaranteed_which_is_at_most_best(deal, back):
    analysis = analyse(deal_position(deal, 52 - back), budget=60)
    for seat in SEATS:
        worst, best, guaranteed = values(analysis, seat)
        assert worst <= guaranteed <= best


@PROPERTY
@given(played_deals())
def test_at_a_finished_deal_all_three_are_the_deals_points(deal):
    analysis = analyse(deal, budget=1)
    assert analysis.to_play is None and analysis.exact and analysis.cards == ()
    for seat in SEATS:
        points = deal.settlement().points[seat]
        assert values(analysis, seat) == (points, points, points)
    assert analysis.as_json()["to_play"] is None and analysis.as_json()["cards"] == {}


@PROPERTY
@given(played_deals(), st.integers(1, 16))
def test_the_range_never_widens_after_the_card_actually_played(deal, back):
    before = analyse(deal_position(deal, 52 - back), budget=60)
    after = analyse(deal_position(deal, 53 - back), budget=60)
    for seat in SEATS:
        assert before.seat(seat).worst.low <= after.seat(seat).worst.low
        assert after.seat(seat).best.high <= before.seat(seat).best.high


@settings(max_examples=examples(15), deadline=None)
@given(
    played_deals(),
    st.integers(0, 20),
    st.sampled_from(
        [
            SearchOptions(transpositions=False),
            SearchOptions(merge_ranks=False),
            SearchOptions(bounds=False),
            SearchOptions(decided_tricks=False),
            SearchOptions(penalty_order=False),
            SearchOptions(shared_tables=False),
            SearchOptions(other_pasts=False),
            SearchOptions(another_taker=False),
            SearchOptions(quick_tricks=False),
            SearchOptions(ducking=False),
            SearchOptions(suit_symmetry=False),
            SearchOptions(claims=False),
            SearchOptions(killer_leads=False),
            SearchOptions(keep_winners=False),
            SearchOptions(best_tricks=False),
            SearchOptions(False, False, False, False, False, False, False),
        ]
    ),
)
def test_switching_a_pruning_idea_off_changes_no_value(deal, back, options):
    position = deal_position(deal, 52 - back)
    switched, full = analyse(position, budget=60, options=options), analyse(position, budget=60)
    assert full.exact
    if switched.exact:
        assert switched.as_json() == full.as_json()
        return
    # past its budget (every idea off, 20 cards back, a loaded machine): its bounds hold the values
    for seat in SEATS:
        for mode in ("worst", "best", "guaranteed"):
            bounds, value = getattr(switched.seat(seat), mode), getattr(full.seat(seat), mode)
            assert bounds.low <= value.low and value.high <= bounds.high, (seat, mode)
    for (card, bounds), (_, value) in zip(switched.cards, full.cards, strict=True):
        assert bounds.low <= value.low and value.high <= bounds.high, card


LEFT_OFF = SearchOptions(shed_cards=True, decided_leads=True)  # the left-off bounds, both on
ALL_LEFT_OFF = SearchOptions(shed_cards=True, decided_leads=True, null_window=True)


@settings(max_examples=examples(15), deadline=None)
@given(
    played_deals(),
    st.integers(0, 20),
    st.sampled_from(
        [
            SearchOptions(shed_cards=True),
            SearchOptions(decided_leads=True),
            SearchOptions(null_window=True),
            ALL_LEFT_OFF,
        ]
    ),
)
def test_switching_a_left_off_idea_on_changes_no_value(deal, back, options):
    position = deal_position(deal, 52 - back)
    switched, full = analyse(position, budget=60, options=options), analyse(position, budget=60)
    assert full.exact and switched.exact
    assert switched.as_json() == full.as_json()


@PROPERTY
@given(played_deals(), st.integers(0, 12))
def test_with_the_left_off_ideas_on_it_still_equals_the_brute_force_enumeration(deal, back):
    position = deal_position(deal, 52 - back)
    analysis = analyse(position, budget=60, options=ALL_LEFT_OFF)
    expected = brute_force(position)
    assert analysis.exact
    for seat in SEATS:
        assert values(analysis, seat) == expected[seat], seat


def test_past_its_budget_it_says_it_is_not_exact_and_gives_bounds_that_hold():
    rng = random.Random(7)
    deal = DealState(ScheduledDeal(1, Kind.ODGRYWKA, Seat.W, Seat.N, False), Ruleset(), deal_hands(rng))
    analysis = analyse(deal, budget=0.05)
    assert not analysis.exact
    data = analysis.as_json()
    assert set(data["bounds"]["seats"]) == {"N", "E", "S", "W"}
    for seat in SEATS:
        row = analysis.seat(seat)
        for interval in (row.worst, row.best, row.guaranteed):
            assert 0 <= interval.low <= interval.high <= 520  # R17, R22: at most 130 × 4
        assert row.worst.low <= row.guaranteed.high and row.guaranteed.low <= row.best.high


def test_a_position_is_rebuilt_from_public_moves_and_refuses_a_play_count_out_of_range():
    rng = random.Random(3)
    deal = DealState(ScheduledDeal(1, Kind.ROZBOJNIK, Seat.W, Seat.N, False), Ruleset(), deal_hands(rng))
    while not deal.is_over:
        deal = deal.play(choose_card(rng, deal, "random"))
    assert deal_position(deal, 17).plays == deal.plays[:17]
    try:
        deal_position(deal, 53)
    except ValueError as exc:
        assert "0 to 52" in str(exc)
    else:
        raise AssertionError("53 plays accepted")


@settings(max_examples=examples(25), deadline=None)
@given(played_deals(), st.integers(13, 24))
def test_the_bounds_given_past_the_budget_hold_the_exact_values(deal, back):
    position = deal_position(deal, 52 - back)
    hurried, exact = analyse(position, budget=0.002), analyse(position, budget=60)
    assert exact.exact
    for seat in SEATS:
        for mode in ("worst", "best", "guaranteed"):
            interval, value = getattr(hurried.seat(seat), mode), getattr(exact.seat(seat), mode).low
            assert interval.low <= value <= interval.high, (seat, mode)
    for (card, interval), (same, value) in zip(hurried.cards, exact.cards):
        assert card == same and interval.low <= value.low <= interval.high


# The bounds a search starts from: availability (R14–R22) and, mid-trick, the decided-trick bounds
# (R11: a discard never wins; a seat holding the best card with no higher one still to come takes
# the trick); LEFT_OFF adds a decided trick's cards still to come at their cheapest (R14; R11: the
# led suit if held) and, at a trick start, a trick that whatever is led goes to the seat or cannot
# (R10, R11, R16).
BOUNDS = pytest.mark.parametrize("options", [SearchOptions(), LEFT_OFF], ids=["defaults", "left_off"])


@BOUNDS
@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(played_deals(), st.integers(1, 11))
def test_the_bounds_the_search_starts_from_never_cut_off_the_brute_force_value(options, deal, back):
    position = deal_position(deal, 52 - back)
    expected = brute_force(position)
    for seat in SEATS:
        for index, mode in enumerate(("worst", "best", "guaranteed")):
            interval = search_bounds(position, seat, mode, options)
            assert interval.low <= expected[seat][index] <= interval.high, (seat, mode, interval)


@BOUNDS
@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(played_deals(), st.integers(12, 22))
def test_deeper_the_bounds_hold_the_exact_values_too(options, deal, back):
    position = deal_position(deal, 52 - back)
    analysis = analyse(position, budget=60)
    assert analysis.exact
    for seat in SEATS:
        for mode in ("worst", "best", "guaranteed"):
            interval, value = search_bounds(position, seat, mode, options), getattr(analysis.seat(seat), mode).low
            assert interval.low <= value <= interval.high, (seat, mode)


def most_tricks(deal: DealState, seat: Seat) -> int:
    """The most tricks ``seat`` ends the deal with over every legal continuation (the engine's moves)."""
    if deal.is_over:
        return deal.tricks[seat]
    return max(most_tricks(deal.play(card), seat) for card in deal.legal_cards(deal.to_play))


@settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(played_deals(), st.sampled_from([4, 8, 12]))
def test_an_odgrywka_seat_that_cannot_take_every_trick_left_is_bounded_by_one_trick_fewer(deal, back):
    """R16, R17, R22 (``SearchOptions.best_tricks``): at a trick start, the bound a search starts
    from is never below the brute-force best; and where no line gives a seat every trick left,
    its best is bounded by one trick fewer and, while the three others have no trick, by a
    multiplier less: the search sees exactly the positions where no line gives it every trick."""
    assume(deal.kind is Kind.ODGRYWKA)
    position = deal_position(deal, 52 - back)
    expected = brute_force(position)
    left = back // 4
    options = SearchOptions(quick_tricks=False, claims=False)  # the availability bounds and this one
    for seat in SEATS:
        interval = search_bounds(position, seat, "best", options)
        assert interval.low <= expected[seat][1] <= interval.high, (seat, interval)
        if left == 1:  # the last trick plays itself: no bound is asked there
            continue
        if most_tricks(position, seat) - position.tricks[seat] < left:
            others = sum(1 for s in SEATS if s != seat and not position.tricks[s])
            past = 10 * position.tricks[seat]  # R17
            bound = (past + 10 * (left - 1)) * (min(others, 2) + 1) + sale_transfer(position)[seat]
            assert interval.high <= bound, (seat, interval, bound)
        else:
            without = SearchOptions(quick_tricks=False, claims=False, best_tricks=False)
            assert interval == search_bounds(position, seat, "best", without)
