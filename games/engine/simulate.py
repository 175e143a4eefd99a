"""Random legal matches, for demos, load tests and benchmarks (``kierki simulate``).

Each player gets a temperament: some duck (play their lowest legal card), some grab
(their highest), some play at random — so zero-trick deals, Max and compensating
deals (with lead sales) occur. Legality comes from ``legal_cards`` alone.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games.engine.deal import DealState
from games.engine.match import MatchState
from games.engine.record import FORMAT, SaleRecord, encode_deal
from games.engine.ruleset import Ruleset
from games.engine.seats import SEATS, Seat

Strategy = Callable[[random.Random, tuple], Any]

STRATEGIES: dict[str, Strategy] = {
    "random": lambda rng, legal: rng.choice(legal),
    "low": lambda rng, legal: min(legal, key=lambda c: (c % 13, c)),
    "high": lambda rng, legal: max(legal, key=lambda c: (c % 13, c)),
}
OPTION_SETS: tuple[dict, ...] = (
    {},
    {"heart_discard": "descending"},
    {"last_tricks": [7, 13]},
    {"regular_deals": ["R", "O", "R", "O"]},
)


STACKED_SHARE = 0.02  # deals where one seat is dealt the 13 top cards and plays them high


def deal_hands(rng: random.Random, stacked: Seat | None = None) -> tuple[tuple[int, ...], ...]:
    """Four random hands; with ``stacked``, that seat gets the aces, kings, queens and a jack."""
    deck = list(range(52))
    rng.shuffle(deck)
    if stacked is not None:
        deck.sort(key=lambda c: -(c % 13))  # ranks high to low; the shuffle breaks ties
        top, rest = deck[:13], deck[13:]
        rng.shuffle(rest)
        deck = rest[: 13 * stacked] + top + rest[13 * stacked :]
    return tuple(tuple(sorted(deck[13 * i : 13 * i + 13])) for i in range(4))


def choose_card(rng: random.Random, deal: DealState, strategy: str, wobble: float = 0.15) -> int:
    """A legal card for the seat on turn; ``wobble`` is how often a player strays to a random one."""
    legal = deal.legal_cards(deal.to_play)
    if strategy != "random" and rng.random() < wobble:
        strategy = "random"
    return STRATEGIES[strategy](rng, legal)


def simulate_match(
    rng: random.Random, *, ruleset: Ruleset | None = None, players: dict | None = None, first_dealer: Seat | None = None
) -> dict[str, Any]:
    """One finished match as a ``kierki-match/1`` record (a dict)."""
    ruleset = ruleset or Ruleset.from_options(rng.choice(OPTION_SETS))
    first_dealer = first_dealer if first_dealer is not None else rng.choice(SEATS)
    temperament = [rng.choice(("low", "high", "random")) for _ in SEATS]
    state = MatchState.start(ruleset, first_dealer)
    deals = []
    while not state.complete:
        stacked = rng.choice(SEATS) if rng.random() < STACKED_SHARE else None
        hands = deal_hands(rng, stacked)
        state = state.start_deal(hands)
        state, sale = _maybe_sell(rng, state)
        deal = state.deal
        while not deal.is_over:
            if deal.turn == stacked:
                card = choose_card(rng, deal, "high", wobble=0)
            else:
                card = choose_card(rng, deal, temperament[deal.turn])
            deal = deal.play(card)
        state = state.with_deal(deal)
        deals.append(encode_deal(hands, deal.plays, sale))
    return {
        "format": FORMAT,
        "ruleset": {"name": ruleset.name, "options": ruleset.options()},
        "players": players or {s.name: f"player-{s.name}" for s in SEATS},
        "first_dealer": first_dealer.name,
        "deals": deals,
    }


def _maybe_sell(rng: random.Random, state: MatchState) -> tuple[MatchState, SaleRecord | None]:
    """R26–R28: in a compensating odgrywka, others may offer; the holder sometimes accepts."""
    deal = state.deal
    if not deal.can_sell_lead or rng.random() < 0.4:
        return state, None
    for seat in SEATS:
        if seat != deal.holder and rng.random() < 0.5:
            state = state.offer_lead(seat, rng.randint(1, 3))
    offers = state.deal.offers
    if offers and rng.random() < 0.6:
        choice = rng.randrange(len(offers))
        state = state.decide_lead(choice)
        return state, SaleRecord(offers[choice].buyer.name, offers[choice].price)
    return state.decide_lead(None), None


def simulate(count: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    return [simulate_match(rng, players={s.name: f"sim{seed}-{i + 1}-{s.name}" for s in SEATS}) for i in range(count)]
