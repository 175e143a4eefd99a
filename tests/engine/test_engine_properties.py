"""Property tests (hypothesis) for what the scenarios cannot enumerate.

Whole matches are played two ways: by hypothesis itself (it draws the deal and, at every turn,
which of the legal cards is played) and by ``simulate.simulate_match`` from hypothesis-drawn
seeds. The rules these tests check are computed here independently from RULES.md's wording,
never by calling the engine's ``rules`` module (except in the last test, which is about it).
"""

import random

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from support import examples

from games.engine import CARDS, MatchState, Ruleset, RuleViolation, Seat, record, replay, rules, scoring, simulate
from games.engine.ruleset import Kind

SEATS = tuple(Seat)
RANKS = "23456789TJQKA"
# A whole match is at least 104 plays: large inputs are the point, not a mistake.
WHOLE_MATCH = settings(
    max_examples=examples(20),
    deadline=None,
    suppress_health_check=[HealthCheck.large_base_example, HealthCheck.data_too_large],
)

OPTIONS = st.sampled_from(
    [
        {},
        {"heart_discard": "descending"},
        {"last_tricks": [7, 13]},
        {"heart_discard": "descending", "last_tricks": [1, 5]},
    ]
)
BALANCED_REGULAR_DEALS = st.sampled_from([["R", "O"], ["O", "R"], ["R", "O", "O", "R"]])


# --- an independent reading of RULES.md -----------------------------------------------------------


def rank(name):
    return RANKS.index(name[0])


def penalty(trick, trick_no, last_tricks):
    """R14: 2 a trick, 2 a heart, 5 a queen, 3 a king or jack, 16 more for KH, 9 for a last trick (R15)."""
    points = 2 + (9 if trick_no in last_tricks else 0)
    for name in map(str, trick):
        points += 2 if name[1] == "H" else 0
        points += {"Q": 5, "K": 3, "J": 3}.get(name[0], 0)
        points += 16 if name == "KH" else 0
    return points


def expected_rejection(deal, card, *, kind, descending):
    """The R30 code for playing ``card`` now, or None if RULES.md allows it."""
    on_turn = deal.to_play
    owner = next((seat for seat in SEATS if card in deal.hand(seat)), None)
    if owner is None:
        return "card_not_in_hand"
    if owner != on_turn:
        return "not_your_turn"
    hand = [str(c) for c in deal.hand(on_turn)]
    name, trick = str(card), deal.current_trick()
    trick_no = len(deal.completed_tricks()) + 1
    if not trick:  # leading
        if kind is Kind.ROZBOJNIK and name[1] == "H" and any(c[1] != "H" for c in hand):
            return "hearts_lead_forbidden"  # R10
        return None  # R16: any card may be led
    led = str(trick[0][1])[1]
    if any(c[1] == led for c in hand):  # following
        if name[1] != led:
            return "must_follow_suit"  # R11, R16
        if kind is Kind.ODGRYWKA:
            best = max(rank(str(c)) for _, c in trick if str(c)[1] == led)
            if any(c[1] == led and rank(c) > best for c in hand) and rank(name) <= best:
                return "must_overtake"  # R16
        return None  # R13: no heart rule limits following suit
    if kind is Kind.ODGRYWKA:
        return None  # R16: a void player plays any card
    if name == "KH" and trick_no == 1:
        return "king_of_hearts_first_trick"  # R12a
    if name[1] == "H" and name != "KH" and trick_no > 1 and "KH" in hand:
        return "king_of_hearts_first"  # R12b
    if descending and name[1] == "H":
        if trick_no > 1 and "KH" in hand:
            required = "KH"  # R12b, which R12c repeats
        else:
            required = max((c for c in hand if c[1] == "H" and c != "KH"), key=rank)
        if name != required:
            return "highest_heart_first"  # R12c
    return None


def rule_of(code, kind):
    return {
        "hearts_lead_forbidden": "R10",
        "must_follow_suit": "R11" if kind is Kind.ROZBOJNIK else "R16",
        "king_of_hearts_first_trick": "R12a",
        "king_of_hearts_first": "R12b",
        "highest_heart_first": "R12c",
        "must_overtake": "R16",
    }.get(code)


# --- hypothesis-driven play -------------------------------------------------------------------------


def draw_hands(data):
    """A shuffled deck from a drawn seed (hypothesis's own permutations lean towards the sorted deck,
    one suit to a hand); ``lopsided`` of the cards are then grouped by suit, so players are often
    void and discards (R12) come up early."""
    rng = random.Random(data.draw(st.integers(0, 2**64 - 1), label="deal seed"))
    lopsided = data.draw(st.sampled_from([0.0, 0.5, 0.8]), label="lopsided")
    deck = list(range(52))
    rng.shuffle(deck)
    deck.sort(key=lambda card: card // 13 if rng.random() < lopsided else 4)
    return tuple(tuple(CARDS[c] for c in sorted(deck[13 * i : 13 * i + 13])) for i in range(4))


def draw_card(data, deal):
    legal = deal.legal_cards(deal.to_play)
    return legal[data.draw(st.integers(0, len(legal) - 1), label="choice")]


def draw_lead_sale(data, state):
    """R26–R28: in a compensating odgrywka, some offers, then the holder's decision (or none: he just leads)."""
    deal = state.deal
    if not deal.can_sell_lead:
        return state
    others = [seat for seat in SEATS if seat != deal.holder]
    offers = data.draw(st.lists(st.tuples(st.sampled_from(others), st.integers(1, 13)), max_size=3), label="offers")
    for buyer, price in offers:
        state = state.offer_lead(buyer, price)
    decision = data.draw(st.sampled_from(["lead", "keep"] + list(range(len(offers)))), label="decision")
    if decision == "lead":
        return state
    return state.decide_lead(None if decision == "keep" else decision, seat=deal.holder)


def play_match(data, ruleset, first_dealer):
    """A whole match, every choice drawn by hypothesis; each play is a legal card and must be taken."""
    state = MatchState.start(ruleset, first_dealer)
    while not state.complete:
        assert len(state.results) < 100
        state = draw_lead_sale(data, state.start_deal(draw_hands(data)))
        while state.deal is not None:
            deal = state.deal
            seat = deal.to_play
            legal = deal.legal_cards(seat)
            assert legal, "the player on turn always has a legal card"
            assert set(legal) <= set(deal.hand(seat))
            state = state.play(draw_card(data, deal), seat=seat)  # never rejected
    return state


def check_deal_balance(result, ruleset):
    """R8, R14, R17, R20–R22, R27 for one finished deal."""
    final = result.final
    assert len(final.plays) == 52 and sum(result.tricks) == 13
    assert list(result.tricks) == [sum(w == seat for w in final.winners) for seat in SEATS]
    zero = [seat for seat in SEATS if result.tricks[seat] == 0]
    sold = final.sale is not None
    event(f"{result.kind.value} ×{result.multiplier}{' sold' if sold else ''}")
    if result.kind is Kind.ROZBOJNIK:
        raw = scoring.raw_points(result.kind, final.plays, final.winners, ruleset.last_tricks)
        assert sum(raw) == 130  # R14
        mine = [0, 0, 0, 0]
        for number, (winner, trick) in enumerate(final.completed_tricks(), 1):
            mine[winner] += penalty([card for _, card in trick], number, ruleset.last_tricks)
        assert raw == mine
        assert not sold  # R26
        assert sum(result.points) == -130 * result.multiplier  # R8
        if len(zero) == 3:  # R21: Max
            taker = next(seat for seat in SEATS if result.tricks[seat])
            assert list(result.points) == [0 if s == taker else -130 for s in SEATS]
            assert list(result.kreski) == [2 if s == taker else 0 for s in SEATS]
            assert result.multiplier == 3
            assert [c.leader for c in result.compensations] == [taker, taker]
        else:  # R20
            assert result.multiplier == len(zero) + 1
            assert list(result.points) == [-raw[s] * result.multiplier for s in SEATS]
            assert list(result.kreski) == [int(s in zero) for s in SEATS]
            assert sorted(c.leader for c in result.compensations) == zero
    else:  # R17, R22, R27
        assert result.multiplier == len(zero) + 1
        expected = [10 * result.tricks[s] * result.multiplier for s in SEATS]
        if sold:
            buyer, price = final.sale
            expected[buyer] -= 10 * price
            expected[final.holder] += 10 * price
        assert list(result.points) == expected
        assert sum(result.points) == 130 * result.multiplier  # R8: a sale only moves points
        assert not any(result.kreski)
        assert sorted(c.leader for c in result.compensations) == zero
    assert len(result.compensations) == result.multiplier - 1  # R8
    assert all(c.kind is result.kind.other for c in result.compensations)  # R24


@WHOLE_MATCH
@given(data=st.data(), options=OPTIONS, regular=BALANCED_REGULAR_DEALS, first_dealer=st.sampled_from(SEATS))
def test_random_legal_play_through_a_whole_match_is_never_rejected(data, options, regular, first_dealer):
    """legal_cards is the one source of legality: whatever legal card is drawn, the engine takes it."""
    ruleset = Ruleset.from_options({**options, "regular_deals": regular})

    state = play_match(data, ruleset, first_dealer)

    assert state.complete and state.next_deal is None
    assert len(state.results) >= len(regular)


@WHOLE_MATCH
@given(data=st.data(), options=OPTIONS, regular=BALANCED_REGULAR_DEALS, first_dealer=st.sampled_from(SEATS))
def test_every_deal_of_a_randomly_played_match_keeps_the_130_pool(data, options, regular, first_dealer):
    """R14: a rozbójnik's raw penalties sum to 130; R17: an odgrywka's tricks to 13; R8, R20–R24."""
    ruleset = Ruleset.from_options({**options, "regular_deals": regular})

    state = play_match(data, ruleset, first_dealer)

    for result in state.results:
        check_deal_balance(result, ruleset)


@WHOLE_MATCH
@given(data=st.data(), options=OPTIONS, regular=BALANCED_REGULAR_DEALS, first_dealer=st.sampled_from(SEATS))
def test_a_randomly_played_match_with_as_many_r_as_o_sums_to_zero(data, options, regular, first_dealer):
    """R8."""
    state = play_match(data, Ruleset.from_options({**options, "regular_deals": regular}), first_dealer)

    assert sum(state.totals) == 0
    assert state.winners == tuple(s for s in SEATS if state.totals[s] == max(state.totals))  # R9


# --- simulated matches ------------------------------------------------------------------------------

SEEDS = st.integers(0, 2**32 - 1)
SIMULATED = settings(max_examples=examples(60), deadline=None)  # a simulated match takes a few milliseconds


@SIMULATED
@given(seed=SEEDS)
def test_a_simulated_match_with_as_many_r_as_o_sums_to_zero(seed):
    """R8, over simulate_match (its option sets all hold as many R as O; some deals are stacked for Max)."""
    data = simulate.simulate_match(random.Random(seed))
    result = replay(record.decode(data))

    assert result.ok, result.error
    assert result.state.complete
    assert sum(result.state.totals) == 0
    for deal in result.state.results:
        check_deal_balance(deal, result.state.ruleset)


@SIMULATED
@given(seed=SEEDS, regular=st.sampled_from([["O", "R"], ["R", "R", "O", "O"], ["O", "R", "R", "O", "O", "R"]]))
def test_a_simulated_match_of_any_balanced_regular_deals_sums_to_zero(seed, regular):
    """R8."""
    rng = random.Random(seed)
    data = simulate.simulate_match(rng, ruleset=Ruleset.from_options({"regular_deals": regular}))

    assert sum(replay(record.decode(data)).summary()["totals"].values()) == 0


@SIMULATED
@given(seed=SEEDS, cut=st.floats(0, 1))
def test_replaying_a_record_twice_gives_equal_summaries(seed, cut):
    """Replay is a pure function of the record, for finished matches and matches in progress."""
    data = simulate.simulate_match(random.Random(seed))
    plays = [len(deal["plays"]) for deal in data["deals"]]
    keep = int(cut * sum(plays))  # cut the record after `keep` plays
    deals = []
    for deal in data["deals"]:
        deals.append({**deal, "plays": deal["plays"][:keep]})
        keep -= len(deals[-1]["plays"])
        if keep <= 0:
            break
    partial = {**data, "deals": deals}

    for source in (data, partial):
        first, second = replay(record.decode(source)), replay(record.decode(source))
        assert first.summary() == second.summary()
        assert first.ok


@SIMULATED
@given(seed=SEEDS)
def test_a_record_round_trips_through_decode_and_encode(seed):
    """RECORD_FORMAT.md: decode → encode → decode gives the same record, and the same JSON."""
    data = simulate.simulate_match(random.Random(seed))

    decoded = record.decode(data)
    assert record.decode(record.encode(decoded)) == decoded
    assert record.encode(decoded) == data


# --- illegal cards ------------------------------------------------------------------------------------


def snapshot(deal):
    return (
        tuple(deal.hand(seat) for seat in SEATS),
        tuple(deal.plays),
        deal.to_play,
        deal.current_trick(),
        deal.completed_tricks(),
        deal.offers,
        deal.sale,
        deal.legal_cards(deal.to_play),
    )


@settings(deadline=None)
@given(
    data=st.data(),
    kind=st.sampled_from([Kind.ROZBOJNIK, Kind.ODGRYWKA]),
    descending=st.booleans(),
    first_dealer=st.sampled_from(SEATS),
    steps=st.integers(0, 51),
)
def test_a_card_outside_legal_cards_is_rejected_with_the_code_r30_prescribes(
    data, kind, descending, first_dealer, steps
):
    """R30: someone else's card → not_your_turn; a played card → card_not_in_hand; else the first rule
    broken in R30 order (suit, hearts, overtaking) — and the rejected event changes nothing."""
    options = {"regular_deals": [kind.letter], "heart_discard": "descending" if descending else "king_first"}
    ruleset = Ruleset.from_options(options)
    hands = draw_hands(data)
    state = MatchState.start(ruleset, first_dealer).start_deal(hands)
    for step in range(steps + 1):
        deal = state.deal
        before = snapshot(deal)
        legal = set(deal.legal_cards(deal.to_play))
        # on the way, the cards of the player on turn; at the state reached, all 52
        candidates = CARDS if step == steps else deal.hand(deal.to_play)
        illegal = []
        for card in candidates:
            expected = expected_rejection(deal, card, kind=kind, descending=descending)
            assert (card in legal) == (expected is None), (str(card), expected)
            if expected is None:
                continue
            illegal.append((card, expected))
            event(f"rejected: {expected}")
            with pytest.raises(RuleViolation) as caught:
                state.play(card)
            assert caught.value.code == expected, str(card)
            assert caught.value.seat == deal.to_play and caught.value.card == card
            if rule_of(expected, kind):
                assert caught.value.rule == rule_of(expected, kind)
            assert snapshot(state.deal) == before
        if step < steps:
            state = state.play(draw_card(data, deal))

    # the same in a record: the report names the play, and replay stops just before it
    card, expected = data.draw(st.sampled_from(illegal), label="illegal card")
    result = replay(
        record.decode(
            {
                "ruleset": {"name": "rozbojnik-odgrywka", "options": options},
                "players": {"N": "a", "E": "b", "S": "c", "W": "d"},
                "first_dealer": first_dealer.name,
                "deals": [
                    {
                        "hands": {seat.name: [str(c) for c in hands[seat]] for seat in SEATS},
                        "plays": [str(c) for c in deal.plays] + [str(card)],
                    }
                ],
            }
        )
    )
    assert result.summary() == {
        "error": {"code": expected, "deal": 1, "play_index": steps, "seat": deal.to_play.name, "card": str(card)}
    }
    assert snapshot(result.state.deal) == before


# --- the rules module: each variant is the intersection of its rules ----------------------------------


@st.composite
def contexts(draw):
    """(hand, led, best, trick_no) as bitmasks: led −1 when leading, best a card of the led suit not held."""
    trick_no = draw(st.integers(1, 13))
    size = draw(st.sampled_from([14 - trick_no, None]))  # as in play, or any size
    held = draw(st.sets(st.integers(0, 51), min_size=size or 1, max_size=size or 13))
    led = draw(st.integers(-1, 3))
    best = -1
    if led >= 0:
        outside = [c for c in range(13 * led, 13 * led + 13) if c not in held]
        assume(outside)
        best = draw(st.sampled_from(outside))
    return sum(1 << c for c in held), led, best, trick_no, size is not None


@given(context=contexts())
def test_each_variants_legal_cards_are_the_intersection_of_its_rules(context):
    """rules.py: Variant.legal equals the cards every one of Variant.rules allows."""
    hand, led, best, trick_no, as_in_play = context
    for variant in (rules.ROZBOJNIK, rules.ROZBOJNIK_DESCENDING, rules.ODGRYWKA):
        expected = hand
        for rule, _error, _rule_id in variant.rules:
            allowed = rule(hand, led, best, trick_no)
            assert allowed & ~hand == 0, rule.__name__  # a rule only picks among the cards held
            expected &= allowed
        assert variant.legal(hand, led, best, trick_no) == expected, variant
        if as_in_play:
            assert expected, "a player always has a legal card"


def test_each_deal_kind_and_option_has_its_variant():
    """R12c: the descending discards are a rozbójnik option; the odgrywka has its own rules (R16)."""
    default, descending = Ruleset.from_options({}), Ruleset.from_options({"heart_discard": "descending"})

    assert rules.variant(Kind.ROZBOJNIK, default) is rules.ROZBOJNIK
    assert rules.variant(Kind.ROZBOJNIK, descending) is rules.ROZBOJNIK_DESCENDING
    assert rules.variant(Kind.ODGRYWKA, descending) is rules.ODGRYWKA
    assert [rule_id for _, _, rule_id in rules.ROZBOJNIK_DESCENDING.rules] == ["R10", "R11", "R12a", "R12b", "R12c"]


# --- check and force: what the viewer steps a record with ------------------------------------------

DEAL_FIELDS = ("hands", "leader", "turn", "led", "best", "winner", "trick_no", "plays", "winners", "tricks")


def fields(deal):
    """Everything a deal state holds that a play changes (R1–R3), lists as tuples."""
    return tuple(
        tuple(value) if isinstance(value, list) else value for value in map(deal.__getattribute__, DEAL_FIELDS)
    )


def dealt(data, kind, descending, first_dealer):
    options = {"regular_deals": [kind.letter], "heart_discard": "descending" if descending else "king_first"}
    return MatchState.start(Ruleset.from_options(options), first_dealer).start_deal(draw_hands(data)).deal


DEALS = {
    "kind": st.sampled_from([Kind.ROZBOJNIK, Kind.ODGRYWKA]),
    "descending": st.booleans(),
    "first_dealer": st.sampled_from(SEATS),
}


@settings(deadline=None)
@given(data=st.data(), steps=st.integers(0, 52), **DEALS)
def test_check_is_none_exactly_for_the_legal_cards_and_else_names_what_play_raises(
    data, kind, descending, first_dealer, steps
):
    """R30: ``check(card)`` is None iff ``card`` is in ``legal_cards`` (the variant's ``legal``,
    R10–R16); else it is the violation ``play`` raises — the same code, rule, seat and card, the
    code RULES.md prescribes — and after the 52nd card every card is ``deal_over`` (R2)."""
    deal = dealt(data, kind, descending, first_dealer)
    for _ in range(steps):
        deal = deal.play(draw_card(data, deal))
    before = fields(deal)
    legal = set(deal.legal_cards(deal.to_play)) if deal.to_play is not None else set()
    for card in CARDS:
        found = deal.check(card)
        assert (found is None) == (card in legal), str(card)
        if deal.is_over:
            assert found.code == "deal_over" and found.rule == "R2"
            continue
        assert (None if found is None else found.code) == expected_rejection(
            deal, card, kind=kind, descending=descending
        )
        if found is None:
            continue
        event(f"check: {found.code}")
        with pytest.raises(RuleViolation) as caught:
            deal.play(card)
        assert (found.code, found.rule, found.seat, found.card) == (
            caught.value.code,
            caught.value.rule,
            caught.value.seat,
            caught.value.card,
        )
    assert fields(deal) == before  # check never changes the state


@settings(deadline=None)
@given(data=st.data(), steps=st.integers(0, 51), **DEALS)
def test_force_of_a_legal_card_is_play_and_of_a_forbidden_one_puts_it_on_the_table(
    data, kind, descending, first_dealer, steps
):
    """``force(card)`` equals ``play(card)`` for a legal card; a held card a rule of play forbids
    (R10–R16) goes on the table all the same, the trick still taken by the highest card of the
    led suit (R3) and the turn passing clockwise (R1); a card not held is refused as ``check``
    says (R1, R2). The state forced from is unchanged."""
    deal = dealt(data, kind, descending, first_dealer)
    for _ in range(steps):
        deal = deal.play(draw_card(data, deal))
    before, seat = fields(deal), deal.to_play
    legal = set(deal.legal_cards(seat))
    for card in CARDS:
        if card in legal:
            assert fields(deal.force(card)) == fields(deal.play(card)), str(card)
        elif card in deal.hand(seat):
            event("forced: a forbidden card")
            forced = deal.force(card)
            assert forced.plays == [*deal.plays, card] and card not in forced.hand(seat)
            if len(forced.plays) % 4:
                assert forced.to_play == SEATS[(seat + 1) % 4]
            else:
                winner, trick = forced.completed_tricks()[-1]
                led = str(trick[0][1])[1]
                assert winner == max((c for c in trick if str(c[1])[1] == led), key=lambda c: rank(str(c[1])))[0]
                assert forced.to_play in (winner, None)
        else:
            with pytest.raises(RuleViolation) as caught:
                deal.force(card)
            assert caught.value.code == deal.check(card).code in ("not_your_turn", "card_not_in_hand")
    assert fields(deal) == before


@settings(deadline=None)
@given(data=st.data(), **DEALS)
def test_forcing_any_held_cards_plays_the_deal_out_with_13_tricks(data, kind, descending, first_dealer):
    """A record of held cards, legal or not, forced card by card reaches the end of the deal: 52
    plays, 13 tricks, each to a player; then every card is refused as ``deal_over`` (R2)."""
    deal = dealt(data, kind, descending, first_dealer)
    while not deal.is_over:
        hand = deal.hand(deal.to_play)
        deal = deal.force(hand[data.draw(st.integers(0, len(hand) - 1), label="any held card")])
    assert len(deal.plays) == 52 and sum(deal.tricks) == 13 and len(deal.winners) == 13
    with pytest.raises(RuleViolation) as caught:
        deal.force(CARDS[0])
    assert caught.value.code == "deal_over"
