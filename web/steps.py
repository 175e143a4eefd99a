"""The deal viewer's step list: one deal replayed card by card through the engine.

Pure engine code (no Django): ``deal_steps`` takes the deal as it stood before its first card
(after any lead sale) and the cards played, and returns one step per position — step 0 the
dealt hands, step *k* the table after play *k* — with what the page shows at each: the four
hands, the trick on the table (and its winner once complete), tricks taken, who is on turn
and the cards he may play, and the play that led there with the legal alternatives its player
had and the rule it breaks, if any (``DealState.check``).

A stored match only holds legal plays; a record can hold an illegal one. Such a play is shown
with its rule and then forced onto the table (``DealState.force``), so that an arbiter sees how
the record goes on; a card its player does not hold (``not_your_turn``, ``card_not_in_hand``)
or a play after the 52nd cannot be put on the table, and the steps end with it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from games.engine import DealState, Seat
from games.engine.cards import CARDS
from games.engine.errors import CardNotInHand, DealOver, NotYourTurn, RuleViolation
from games.engine.seats import SEATS, by_seat

UNPLAYABLE = (DealOver, NotYourTurn, CardNotInHand)  # R1, R2: no card of the player on turn to put down


def deal_steps(
    deal: DealState,
    plays: Iterable[int],
    *,
    disputes: Mapping[int, Sequence[Mapping[str, Any]]] | None = None,
    describe: Callable[[RuleViolation], str] | None = None,
) -> list[dict[str, Any]]:
    """The steps of ``deal`` through ``plays`` (``deal`` itself is left as it is).

    ``disputes`` maps a play index (0-based) to the disputes naming that play; each such play
    carries them, with the rule it breaks or None when it was legal. ``describe`` says what a
    violation means (the page's: in the reader's language); default the engine's English."""
    disputes = disputes or {}
    steps = [_step(deal, None, None)]
    for index, card in enumerate(plays):
        card = CARDS[card]
        seat = deal.to_play
        play: dict[str, Any] = {
            "index": index,
            "seat": seat.name if seat is not None else None,
            "card": str(card),
            "trick_no": deal.trick_no,
            "legal": _names(deal.legal_cards(seat)) if seat is not None else [],
            "violation": None,
            "disputes": [dict(d) for d in disputes.get(index, ())],
            "applied": True,
        }
        violation = deal.check(card)
        if violation is not None:
            play["violation"] = _violation_json(violation, describe)
        if isinstance(violation, UNPLAYABLE):
            play["applied"] = False  # nothing to put on the table: the steps end here
            steps.append(_step(deal, play, None))
            break
        deal = deal.force(card)  # an illegal card its player holds is shown, then put on the table
        winner = SEATS[deal.winners[-1]] if len(deal.plays) % 4 == 0 else None
        steps.append(_step(deal, play, winner))
    return steps


def _step(deal: DealState, play: dict[str, Any] | None, winner: Seat | None) -> dict[str, Any]:
    if winner is not None:  # the trick just completed stays on the table, its winner marked
        trick_winner, cards = deal.completed_tricks()[-1]
        trick_no = len(deal.winners)
    else:
        cards = deal.current_trick()
        trick_no = min(deal.trick_no, 13)
        trick_winner = None
    to_play = deal.to_play
    return {
        "plays": len(deal.plays),  # cards on the table so far
        "hands": {seat.name: _names(deal.hand(seat)) for seat in SEATS},
        "trick": [{"seat": s.name, "card": str(c)} for s, c in cards],
        "trick_no": trick_no,
        "winner": trick_winner.name if trick_winner is not None else None,
        "tricks": by_seat(deal.tricks),
        "to_play": to_play.name if to_play is not None else None,
        "legal": _names(deal.legal_cards(to_play)) if to_play is not None else [],
        "play": play,
    }


def _violation_json(violation: RuleViolation, describe: Callable[[RuleViolation], str] | None) -> dict[str, Any]:
    detail = describe(violation) if describe is not None else violation.detail
    return {
        "code": violation.code,
        "rule": violation.rule,
        "detail": detail,
        "seat": None if violation.seat is None else str(violation.seat),
    }


def _names(cards: Iterable) -> list[str]:
    return [str(c) for c in cards]
