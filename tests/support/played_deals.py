"""A hypothesis strategy shared by the analysis and annotation tests: whole deals played legally."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from games.engine import DealState, Ruleset, Seat
from games.engine.ruleset import Kind
from games.engine.schedule import ScheduledDeal
from games.engine.simulate import choose_card, deal_hands

SEATS = tuple(Seat)


@st.composite
def played_deals(draw):
    """A whole deal played legally: hypothesis picks the kind (R4), the options, the sale (R27–R28),
    the players' temperaments; a seat sometimes dealt the top cards, so that Max (R21) happens."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    kind = draw(st.sampled_from(Kind))
    options = draw(st.sampled_from([{}, {"heart_discard": "descending"}, {"last_tricks": [7, 13]}]))
    leader = draw(st.sampled_from(SEATS))
    compensating = kind is Kind.ODGRYWKA and draw(st.booleans())
    stacked = draw(st.sampled_from((None,) * 6 + SEATS))
    deal = DealState(
        ScheduledDeal(1, kind, leader.next(3), leader, compensating),
        Ruleset.from_options(options),
        deal_hands(rng, stacked),
    )
    if compensating and draw(st.booleans()):
        deal = deal.offer_lead(leader.next(draw(st.integers(1, 3))), draw(st.integers(1, 13))).decide_lead(0)
    temperament = [draw(st.sampled_from(("low", "high", "random"))) for _ in SEATS]
    while not deal.is_over:
        strategy = "high" if deal.turn == stacked else temperament[deal.turn]
        deal = deal.play(choose_card(rng, deal, strategy))
    return deal
