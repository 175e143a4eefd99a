"""Replay: a record → the match it describes, or its first violation (R30, RECORD_FORMAT.md).

Like scalachess's ``Replay``: it plays as far as the record is legal and returns the
failure as a value, together with the state reached just before it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine import errors
from games.engine.match import MatchState
from games.engine.record import MatchRecord


@dataclass(frozen=True, slots=True)
class Replay:
    state: MatchState  # as far as the record was legal
    error: errors.RuleViolation | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    def summary(self) -> dict[str, Any]:
        """The summary of RECORD_FORMAT.md, or ``{"error": …}`` for an illegal record."""
        if self.error is not None:
            return {"error": self.error.as_json()}
        return self.state.summary()


def replay(record: MatchRecord) -> Replay:
    """R30 order within a deal: match_over, bad_hands, sale_not_allowed, bad_sale, each play,
    deal_incomplete (any deal but the last must have all 52 plays); a deal filed from a paper
    sheet: match_over, bad_tally, sale_not_allowed, bad_sale (RULES.md, R31–R33)."""
    state = MatchState.start(record.ruleset, record.first_dealer)
    last = len(record.deals)
    for number, deal in enumerate(record.deals, 1):
        if deal.entries and deal.entry != "played" or deal.entries > 1:
            try:  # R31–R33: a deal filed from a paper sheet
                sale = None if deal.sale is None else (deal.sale.buyer, deal.sale.price)
                state = state.file_deal(tally=deal.tally, points=deal.points, sale=sale, both=deal.entries > 1)
            except errors.RuleViolation as error:
                return Replay(state, error.located(deal=number))
            continue
        try:
            state = state.start_deal(deal.hands)
            if deal.sale is not None:
                state = state.offer_lead(deal.sale.buyer, deal.sale.price).decide_lead(0)
        except errors.RuleViolation as error:
            return Replay(state, error.located(deal=number))
        live = state.deal  # ours alone: stepped in place, card by card
        play = live.play_in_place
        index = 0
        try:
            for index, card in enumerate(deal.plays):  # noqa: B007 - read by the except below
                play(card)
        except errors.RuleViolation as error:
            return Replay(state, error.located(deal=number, play_index=index))
        if live.is_over:
            state = state.with_deal(live)
        elif number != last:
            return Replay(state, errors.DealIncomplete(deal=number))
    return Replay(state)
