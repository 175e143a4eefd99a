"""The search's card masks (games/engine/masks.py) against the engine's own rules and moves:
``legal_mask`` is ``Variant.legal`` written out (R10–R16), and ``masters`` are the cards that win
their trick when led whatever the others play (R11, R16).
"""

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from support import examples
from support.played_deals import played_deals

from games.engine import DealState
from games.engine.analysis import deal_position
from games.engine.cards import iter_cards
from games.engine.masks import RULE_OTHER, legal_mask, masters, rule_code
from games.engine.rules import ODGRYWKA, ROZBOJNIK, ROZBOJNIK_DESCENDING
from games.engine.ruleset import Kind

PROPERTY = settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(
    st.sampled_from((ROZBOJNIK, ROZBOJNIK_DESCENDING, ODGRYWKA)),
    st.sets(st.integers(0, 51), min_size=1, max_size=13),
    st.integers(-1, 3),
    st.integers(0, 12),
    st.integers(1, 13),
)
def test_the_search_legality_is_the_variants(variant, hand, led, rank, trick_no):
    """R10–R16: the masks the search computes natively (``legal_mask``) are ``Variant.legal``'s."""
    mask = sum(1 << c for c in hand)
    best = -1 if led < 0 else 13 * led + rank
    code = rule_code(variant)
    assert code != RULE_OTHER
    assert legal_mask(code, mask, led, best, trick_no) == variant.legal(mask, led, best, trick_no)


# Every case the play rules tell apart (R10–R16), with one card or two for each: in the led suit a
# card below and a card above the best card so far; in hearts (R10, R12a–c) also the king and the
# cards on either side of it. Each rule reads only whether a hand holds such cards, so every hand of
# this small deck, led each way, at the first trick and a later one, covers every branch of both.
EXHAUSTIVE_RANKS = {suit: (0, 12) for suit in range(4)} | {1: (0, 7, 10, 11, 12)}  # 1: hearts (SHDC)
EXHAUSTIVE_DECK = [13 * suit + rank for suit, ranks in EXHAUSTIVE_RANKS.items() for rank in ranks]
EXHAUSTIVE_LEADS = [(-1, -1)] + [(suit, 13 * suit + rank) for suit in range(4) for rank in (6, 11)]


@pytest.mark.parametrize(
    "variant", [ROZBOJNIK, ROZBOJNIK_DESCENDING, ODGRYWKA], ids=["rozbojnik", "descending", "odgrywka"]
)
def test_the_search_legality_is_the_variants_for_every_hand_of_a_deck_that_holds_every_case(variant):
    """R10–R16, issue 31: ``legal_mask`` (the search's written-out copy) equals ``Variant.legal``,
    the one source, on all 2,048 hands of ``EXHAUSTIVE_DECK``, every lead, tricks 1 and 2."""
    code = rule_code(variant)
    differ = [
        (hand, led, best, trick_no)
        for hand in range(1 << len(EXHAUSTIVE_DECK))
        for mask in [sum(1 << card for bit, card in enumerate(EXHAUSTIVE_DECK) if hand >> bit & 1)]
        for led, best in EXHAUSTIVE_LEADS
        for trick_no in (1, 2)
        if legal_mask(code, mask, led, best, trick_no) != variant.legal(mask, led, best, trick_no)
    ]
    assert differ == []


def trick_winners(deal: DealState) -> set[int]:
    """Who takes the trick in play, over every legal way the engine lets it be completed."""
    if len(deal.plays) % 4 == 0:
        return {deal.winners[-1]}
    seat = deal.to_play
    return set().union(*(trick_winners(deal.play(card)) for card in deal.legal_cards(seat)))


@PROPERTY
@given(played_deals(), st.integers(0, 12))
def test_a_master_led_wins_its_trick_whatever_the_others_play(deal, tricks):
    """R11, R16: a card above every other card of its suit still out wins the trick it leads on
    every legal continuation (a discard never wins); in an odgrywka (R16, nadbijanie) a card led
    wins on every continuation only if it is such a card, as the first player holding a higher
    one must play one."""
    position = deal_position(deal, 4 * tricks)
    leader = position.to_play
    assume(leader is not None)
    mine = position.hands[leader]
    top = masters(mine, (position.hands[0] | position.hands[1] | position.hands[2] | position.hands[3]) ^ mine)
    for card in iter_cards(position.legal_mask(leader)):
        always = trick_winners(position.play(card)) == {int(leader)}
        if top >> card & 1:
            assert always, card
        elif deal.kind is Kind.ODGRYWKA:
            assert not always, card
