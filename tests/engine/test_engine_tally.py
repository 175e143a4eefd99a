"""Deals filed from a paper score sheet (RULES.md revision 1.1): one test per sub-rule of R31–R33,
the check order, and properties: a played deal, its tally and its points score the same, and the
points search (R33) finds a tally for every points vector a real deal gives — and only then."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import counts, examples

from games.engine import MatchState, Ruleset, Seat, errors, record, replay, simulate
from games.engine.ruleset import Kind
from games.engine.tally import SeatTally, check_points, check_tally, played_tally, raw_points, rozbojnik_tally_for

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W
ROZ, ODG = Kind.ROZBOJNIK, Kind.ODGRYWKA
BARE_RECORD = {  # a record's head, no deals
    "format": "kierki-match/1",
    "ruleset": {"name": "rozbojnik-odgrywka", "options": {}},
    "players": {"N": "a", "E": "b", "S": "c", "W": "d"},
    "first_dealer": "N",
}


def sheet():
    """RECORD_FORMAT.md's example tally: E took nothing."""
    return {"N": counts(3, 4, 1, 2), "E": counts(0), "S": counts(6, 5, 2, 4, True, 2), "W": counts(4, 4, 1, 2)}


def bad_tally(kind, data):
    with pytest.raises(errors.BadTally) as caught:
        check_tally(kind, data)
    return caught.value


def bad_points(kind, data):
    with pytest.raises(errors.BadTally) as caught:
        check_points(kind, data)
    return caught.value


def start(regular="R O", first_dealer=N):
    return MatchState.start(Ruleset.from_options({"regular_deals": regular.split()}), first_dealer)


# --- R31: what a tally says and what it scores ------------------------------------------------------


def test_r31_a_tallied_rozbojnik_scores_each_count_as_r14_does():
    """R31: 2·tricks + 2·hearts + 5·queens + 3·kings_jacks + 16·[KH] + 9·last_tricks."""
    tally = check_tally(ROZ, sheet())

    assert raw_points(ROZ, tally) == [2 * 3 + 2 * 4 + 5 + 3 * 2, 0, 12 + 10 + 10 + 12 + 16 + 18, 8 + 8 + 5 + 6]
    assert sum(raw_points(ROZ, tally)) == 130


def test_r31_a_tallied_odgrywka_gives_only_tricks_worth_ten_each():
    """R31, R17."""
    tally = check_tally(ODG, {"N": {"tricks": 5}, "E": {"tricks": 2}, "S": {"tricks": 6}, "W": {"tricks": 0}})

    assert raw_points(ODG, tally) == [50, 20, 60, 0]


def test_r31_a_tallied_deal_settles_with_kreski_multiplier_and_compensations_as_a_played_one():
    """R31 with R20, R23: E took no trick: a kreska, ×2, one compensating odgrywka he leads."""
    state = start().file_deal(tally=sheet())
    deal = state.summary()["deals"][0]

    assert deal["points"] == {"N": -50, "E": 0, "S": -156, "W": -54}
    assert deal["kreski"] == {"N": 0, "E": 1, "S": 0, "W": 0} and deal["multiplier"] == 2
    assert deal["entry"] == "tally" and deal["tricks"] == {"N": 3, "E": 0, "S": 6, "W": 4}
    assert state.next_deal.kind is ODG and state.next_deal.leader == E and state.next_deal.compensating


# --- R32 (a): the shape, seat by seat ---------------------------------------------------------------


@pytest.mark.parametrize(
    "change",
    [
        lambda t: t.pop("W"),
        lambda t: t["W"].update(extra=1),
        lambda t: t["W"].pop("queens"),
        lambda t: t["W"].update(hearts=-1),
        lambda t: t["W"].update(hearts="4"),
        lambda t: t["W"].update(hearts=4.0),
        lambda t: t["W"].update(hearts=True),
        lambda t: t["W"].update(king_of_hearts=0),
        lambda t: t.update(W=[4, 4, 1, 2]),
    ],
)
def test_r32a_a_seat_whose_entry_is_missing_or_misshapen_is_named(change):
    """R32 (a): exactly the keys of R31, JSON integers ≥ 0, a boolean king_of_hearts."""
    tally = sheet()
    change(tally)

    assert bad_tally(ROZ, tally).seat == W


def test_r32a_the_first_seat_at_fault_is_named_n_e_s_w():
    """R32: the error's seat is the first seat whose own entry breaks (a) or (b)."""
    tally = sheet()
    tally["W"]["hearts"] = -1
    tally["E"]["queens"] = 1  # (b): E took no trick

    assert bad_tally(ROZ, tally).seat == E


def test_r32a_an_odgrywka_tally_has_only_tricks_and_a_rozbojnik_tally_every_count():
    """R32 (a), R31: the keys depend on the kind."""
    assert bad_tally(ODG, sheet()).seat == N
    assert bad_tally(ROZ, {s: {"tricks": t} for s, t in zip("NESW", (4, 3, 3, 3))}).seat == N


def test_r32a_a_key_that_is_not_a_seat_has_no_seat():
    """R32: a key that is not a seat is a fault of no seat's entry."""
    tally = sheet()
    tally["X"] = counts(0)

    assert bad_tally(ROZ, tally).seat is None


# --- R32 (b): per player --------------------------------------------------------------------------


def test_r32b_a_player_with_no_trick_took_nothing():
    """R32 (b): no tricks ⇒ every count 0 and no king of hearts."""
    tally = sheet()
    tally["E"]["king_of_hearts"] = True

    assert bad_tally(ROZ, tally).seat == E


def test_r32b_last_tricks_cannot_exceed_tricks():
    """R32 (b)."""
    tally = sheet()
    tally["N"] = counts(1, 2, 1, 0, False, 2)

    assert bad_tally(ROZ, tally).seat == N


# --- R32 (c): the sums --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "key, seat, value",
    [
        ("tricks", "W", 5),
        ("hearts", "W", 5),
        ("queens", "W", 2),
        ("kings_jacks", "W", 3),
        ("king_of_hearts", "W", True),
        ("last_tricks", "W", 1),
    ],
)
def test_r32c_every_count_adds_up_to_what_the_deck_holds(key, seat, value):
    """R32 (c): tricks 13, hearts 13, queens 4, kings_jacks 8, one king of hearts, last_tricks 2; seat null."""
    tally = sheet()
    tally[seat][key] = value

    assert bad_tally(ROZ, tally).seat is None


def test_r32c_an_odgrywkas_tricks_add_up_to_13():
    """R32 (c)."""
    assert bad_tally(ODG, {"N": {"tricks": 7}, "E": {"tricks": 3}, "S": {"tricks": 2}, "W": {"tricks": 2}}).seat is None


# --- R32 (d): the cards add up -------------------------------------------------------------------------


def test_r32d_a_player_cannot_hold_more_cards_than_four_a_trick():
    """R32 (d): hearts + queens + kings_jacks − shared cards ≤ 4 × tricks."""
    tally = {
        "N": counts(1, 4, 1, 2),
        "E": counts(3, 2, 1, 2),
        "S": counts(5, 4, 1, 2, True, 1),
        "W": counts(4, 3, 1, 2, False, 1),
    }

    assert check_tally(ROZ, {**tally, "N": counts(2, 4, 1, 2)} | {"E": counts(2, 2, 1, 2)}) is not None
    assert bad_tally(ROZ, tally).seat is None  # N: 4 + 1 + 2 − at most QH, JH = 5 cards in one trick


def test_r32d_the_taker_of_the_king_of_hearts_took_a_heart_and_a_king():
    """R32 (d): KH is a heart and a king."""
    tally = sheet()
    tally["S"]["hearts"], tally["N"]["hearts"] = 0, 9

    assert bad_tally(ROZ, tally).seat is None


def test_r32d_the_queen_and_jack_of_hearts_can_be_placed_with_any_player():
    """R32 (d): some taker of QH and of JH makes the cards fit — here N must have both."""
    tally = {
        "N": counts(2, 3, 1, 1),
        "E": counts(3, 2, 1, 2),
        "S": counts(4, 5, 1, 3, True, 1),
        "W": counts(4, 3, 1, 2, False, 1),
    }

    assert check_tally(ROZ, tally)[N] == SeatTally(2, 3, 1, 1)


def test_r32_counting_checks_trust_the_sheet_beyond_what_cards_can_add_up_to():
    """R32: 4 tricks holding all 13 hearts pass, though R10 makes that impossible in play."""
    tally = {
        "N": counts(4, 13, 1, 3, True, 0),
        "E": counts(3, 0, 1, 2),
        "S": counts(3, 0, 1, 2),
        "W": counts(3, 0, 1, 1, False, 2),
    }

    assert check_tally(ROZ, tally)


# --- R33: points only --------------------------------------------------------------------------------


def test_r33_points_some_tally_gives_are_accepted_with_a_witness_tally():
    """R33: accepted when a tally valid under R32 gives exactly these points."""
    points, tally = check_points(ROZ, {"N": -50, "E": 0, "S": -156, "W": -54})

    assert points == (-50, 0, -156, -54)
    check_tally(ROZ, {s.name: t.as_json(ROZ) for s, t in zip(Seat, tally)})
    assert [-2 * r for r in raw_points(ROZ, tally)] == [-50, 0, -156, -54]


@pytest.mark.parametrize(
    "points",
    [
        {"N": -40, "E": -30, "S": -30, "W": -31},  # raw sum 131
        {"N": -44, "E": 0, "S": -135, "W": -55},  # not divisible by ×2
        {"N": -1, "E": -43, "S": -43, "W": -43},  # a raw penalty of 1
        {"N": -3, "E": -43, "S": -42, "W": -42},  # nor 3: a trick costs 2, then hearts 2, K/J 3, queens 5
        {"N": -22, "E": 0, "S": -68, "W": -40},  # written before the ×2
        {"N": 0, "E": 0, "S": -130, "W": 0},  # three zeros: Max gives its taker 0
        {"N": 10, "E": -60, "S": -40, "W": -40},  # a rozbójnik gives no plus
        {"N": -44, "E": 0, "S": -136},  # a missing seat
        {"N": -44, "E": 0, "S": -136, "W": -54.0},  # not an integer
        {"N": -44, "E": False, "S": -136, "W": -54},
    ],
)
def test_r33_points_no_tally_gives_are_bad_tally_with_no_seat(points):
    """R33: any fault in a points-only deal is bad_tally with seat null."""
    assert bad_points(ROZ, points).seat is None


def test_r33_a_raw_penalty_no_split_of_the_cards_reaches_is_refused():
    """R33 is an exact search: 128 + 2 is two tricks' worth... but 129 + 1 is not, nor 127 + 3."""
    assert rozbojnik_tally_for([128, 2, 0, 0]) is not None
    assert rozbojnik_tally_for([129, 1, 0, 0]) is None
    assert rozbojnik_tally_for([127, 3, 0, 0]) is None


def test_r33_zero_minus_130_three_times_is_a_max_deal():
    """R33, R21: 0, −130 × 3 is always a Max: two kreski, ×3, two odgrywki led by the taker."""
    state = start("R O").file_deal(points={"N": -130, "E": -130, "S": 0, "W": -130})
    deal = state.summary()["deals"][0]

    assert (deal["kreski"], deal["multiplier"]) == ({"N": 0, "E": 0, "S": 2, "W": 0}, 3)
    assert deal["tricks"] is None and deal["entry"] == "points"
    assert state.next_deal.leader == S and state.next_deal.kind is ODG


def test_r33_odgrywka_points_give_the_multiplier_and_compensating_rozbojniki():
    """R33, R22: 0 ⇔ no trick; E and W empty: ×3, two rozbójniki led clockwise from the leader."""
    state = start("O R", first_dealer=N).file_deal(points={"N": 240, "E": 0, "S": 150, "W": 0})
    deal = state.summary()["deals"][0]

    assert deal["multiplier"] == 3 and deal["kreski"] == {"N": 0, "E": 0, "S": 0, "W": 0}
    assert [c.leader for c in state.results[0].compensations] == [E, W]
    assert bad_points(ODG, {"N": 245, "E": 0, "S": 145, "W": 0}).seat is None  # not tens of tricks


def test_r33_the_sale_transfer_is_added_to_the_written_points():
    """R33, R27: the sheet's points are before the sale; the buyer pays 10 × price to the seller."""
    state = start("R O").file_deal(points={"N": -130, "E": -130, "S": 0, "W": -130})
    state = state.file_deal(points={"N": 0, "E": 0, "S": 520, "W": 0}, sale=("N", 2))
    deal = state.summary()["deals"][1]

    assert deal["points"] == {"N": -20, "E": 0, "S": 540, "W": 0}
    assert deal["leader"] == "N"  # R26: the buyer leads


# --- the check order of a filed deal ------------------------------------------------------------------


def test_a_filed_deal_checks_match_over_then_bad_tally_then_sale_not_allowed_then_bad_sale():
    """RULES.md: match_over, bad_tally, sale_not_allowed, bad_sale."""
    finished = start("O").file_deal(
        tally={"N": {"tricks": 4}, "E": {"tricks": 3}, "S": {"tricks": 3}, "W": {"tricks": 3}}
    )
    assert finished.complete
    with pytest.raises(errors.MatchOver):
        finished.file_deal(tally={}, sale=("S", 99))
    with pytest.raises(errors.BadTally):
        start().file_deal(tally={}, sale=("S", 99))
    with pytest.raises(errors.SaleNotAllowed):
        start().file_deal(tally=sheet(), sale=("S", 99))
    with pytest.raises(errors.BadSale) as caught:
        start("R O").file_deal(tally=sheet()).file_deal(  # E holds the compensating lead: he cannot buy it
            tally={"N": {"tricks": 4}, "E": {"tricks": 3}, "S": {"tricks": 3}, "W": {"tricks": 3}}, sale=("E", 2)
        )
    assert caught.value.seat == "E"


def test_a_deal_with_two_entries_is_bad_tally_and_one_with_none_is_bad_hands():
    """RULES.md, R31–R33: never both; none is bad_hands as before."""
    base = BARE_RECORD
    both = replay(
        record.decode({**base, "deals": [{"tally": sheet(), "points": {"N": -50, "E": 0, "S": -156, "W": -54}}]})
    )
    none = replay(record.decode({**base, "deals": [{}]}))

    assert both.error.code == "bad_tally" and both.error.seat is None
    assert none.error.code == "bad_hands"


def test_played_on_must_be_a_date():
    """RECORD_FORMAT.md 1.1: ``played_on`` is YYYY-MM-DD."""
    base = {**BARE_RECORD, "deals": []}

    assert record.decode({**base, "played_on": "2024-02-29"}).played_on == "2024-02-29"
    for wrong in ("2023-02-29", "29.02.2024", 20240229):
        with pytest.raises(errors.RecordFormatError) as caught:
            record.decode({**base, "played_on": wrong})
        assert caught.value.field == "played_on"


# --- properties ---------------------------------------------------------------------------------------


def filed(data, entry):
    """The simulated record with every deal filed as its tally or its points (after multipliers,
    before the sale transfer)."""
    played = replay(record.decode(data))
    deals = []
    for deal, result in zip(data["deals"], played.state.results):
        final = result.final
        tally = played_tally(result.kind, final.plays, final.winners, played.state.ruleset.last_tricks)
        if entry == "tally":
            written = {"tally": {s.name: t.as_json(result.kind) for s, t in zip(Seat, tally)}}
        else:
            points = list(result.points)
            if final.sale is not None:
                buyer, price = final.sale
                points[buyer] += 10 * price
                points[final.holder] -= 10 * price
            written = {"points": dict(zip("NESW", points))}
        deals.append({**written, **({"sale": deal["sale"]} if "sale" in deal else {})})
    return {**data, "deals": deals}


def without_entries(summary, *, tricks=True):
    for deal in summary["deals"]:
        deal.pop("entry")
        if not tricks:
            deal["tricks"] = None
    return summary


@settings(max_examples=examples(25), deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_played_match_its_tallies_and_its_points_score_the_same(seed):
    """R31, R33: filed by tally or by points, every deal scores, spawns compensations and sells the
    lead exactly as played — whole-match summaries equal (but the tricks points do not tell)."""
    data = simulate.simulate_match(random.Random(seed))
    played = replay(record.decode(data)).summary()

    tallied = replay(record.decode(filed(data, "tally"))).summary()
    pointed = replay(record.decode(filed(data, "points"))).summary()

    assert {d["entry"] for d in tallied["deals"]} == {"tally"} and {d["entry"] for d in pointed["deals"]} == {"points"}
    assert without_entries(tallied) == without_entries(dict(played, deals=[dict(d) for d in played["deals"]]))
    assert without_entries(pointed) == without_entries(played, tricks=False)


@settings(max_examples=examples(200), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), kind=st.sampled_from([ROZ, ODG]), stacked=st.booleans())
def test_the_points_search_finds_a_tally_for_the_points_of_any_real_deal(seed, kind, stacked):
    """R33: for the points of a randomly played deal the search finds a tally (valid under R32)
    that gives exactly those points."""
    rng = random.Random(seed)
    state = start("R O" if kind is ROZ else "O R").start_deal(
        simulate.deal_hands(rng, rng.choice(list(Seat)) if stacked else None)
    )
    while state.deal is not None:
        state = state.play(simulate.choose_card(rng, state.deal, rng.choice(["low", "high", "random"])))
    points = dict(zip("NESW", state.results[0].points))

    written, witness = check_points(kind, points)
    check_tally(kind, {s.name: t.as_json(kind) for s, t in zip(Seat, witness)})
    assert start("R O" if kind is ROZ else "O R").file_deal(points=points).results[0].points == written


def all_raw_penalties_of_two_takers():
    """An independent oracle for R33 with two takers: every tally valid under R32 in which only N
    and E take tricks, enumerated count by count (E takes the rest), and N's raw penalty."""
    reachable = set()
    for t in range(1, 13):
        for h in range(14):
            for q in range(5):
                for kj in range(9):
                    for kh in (False, True):
                        for l in range(3):
                            mine = counts(t, h, q, kj, kh, l)
                            rest = counts(13 - t, 13 - h, 4 - q, 8 - kj, not kh, 2 - l)
                            try:
                                tally = check_tally(ROZ, {"N": mine, "E": rest, "S": counts(0), "W": counts(0)})
                            except errors.BadTally:
                                continue
                            reachable.add(tally[0].raw_penalty())
    return reachable


def test_the_points_search_agrees_with_enumerating_every_tally_of_two_takers():
    """R33 is exact: with two takers it accepts a split of 130 iff some valid tally gives it."""
    reachable = all_raw_penalties_of_two_takers()

    found = {r for r in range(1, 130) if rozbojnik_tally_for([r, 130 - r, 0, 0]) is not None}
    assert found == reachable


# --- R28 before a filed (or dealt) deal: the offers and the decision come first --------------------------


def after_sheet():
    """Deal 1 tallied: E took no trick, so a compensating odgrywka E leads is due."""
    return start("R O").file_deal(tally=sheet())


ODG_TALLY = {"N": {"tricks": 4}, "E": {"tricks": 3}, "S": {"tricks": 3}, "W": {"tricks": 3}}


def test_r28_an_offer_accepted_before_the_deal_is_filed_is_its_sale():
    """R26–R28: offers and the holder's decision, then the sheet: the accepted offer is the sale."""
    state = after_sheet().offer_lead("W", 5).offer_lead("S", 2).decide_lead(1, seat=E)
    deal = state.file_deal(tally=ODG_TALLY).summary()["deals"][1]

    assert deal["leader"] == "S"  # the buyer
    assert deal["points"] == {"N": 40, "E": 30 + 20, "S": 30 - 20, "W": 30}


def test_r28_offers_made_before_the_deal_is_dealt_stand_in_the_deal():
    """R28: the deal dealt afterwards starts with the offers and the decision already made."""
    hands = [list(range(13 * s, 13 * s + 13)) for s in range(4)]
    state = after_sheet().offer_lead("S", 2).decide_lead(0, seat=E).start_deal(hands)

    assert state.deal.sale == (S, 2) and state.deal.to_play == S and not state.deal.can_sell_lead


def test_r28_after_the_decision_no_sale_can_be_written_on_the_deal():
    """RULES.md check order: a sale given with the sheet after the holder decided is sale_not_allowed."""
    state = after_sheet().decide_lead(None, seat=E)

    with pytest.raises(errors.SaleNotAllowed):
        state.file_deal(tally=ODG_TALLY, sale=("S", 2))
    assert state.file_deal(tally=ODG_TALLY).results[-1].sale is None


def test_r28_only_a_compensating_odgrywka_takes_offers_and_only_its_holder_decides():
    """R26: no offer for a regular deal; R28: the holder decides."""
    with pytest.raises(errors.SaleNotAllowed):
        start("R O").offer_lead("S", 2)
    with pytest.raises(errors.NotYourTurn):
        after_sheet().offer_lead("S", 2).decide_lead(0, seat=W)
    with pytest.raises(errors.BadSale):
        after_sheet().offer_lead("E", 2)  # the holder cannot buy his own lead


def test_offers_before_a_deal_survive_a_snapshot():
    from games.engine.match import restore, snapshot

    state = after_sheet().offer_lead("S", 2).decide_lead(0, seat=E)

    again = restore(snapshot(state))

    assert (again.offers, again.decided, again.accepted) == (state.offers, True, 0)
    assert again.file_deal(tally=ODG_TALLY).summary() == state.file_deal(tally=ODG_TALLY).summary()
