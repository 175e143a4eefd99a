"""The Kierki rules engine (rozbójnik / odgrywka): pure Python, no Django.

Rule ids (R1–R33) refer to RULES.md. Entry points:

- ``record.load`` / ``record.decode``: a ``kierki-match/1`` record;
- ``replay(record)``: the summary, or the first violation;
- ``MatchState``: start a match, deal, offer/decide the lead, play cards;
- ``DealState.legal_cards(seat)``: the one source of legality (``rules.Variant.legal``; the
  search's written-out copy, ``masks.legal_mask``, is tested equal to it exhaustively);
- ``MatchState.file_deal``: a deal filed from a paper sheet, by tally or points (R31–R33).
"""

from games.engine.cards import CARDS, Card, cards_of, mask_of
from games.engine.deal import DealState, LeadOffer, check_hands
from games.engine.errors import VIOLATIONS, KierkiError, RecordFormatError, RulesetError, RuleViolation
from games.engine.match import DealResult, MatchState
from games.engine.record import DealRecord, MatchRecord, SaleRecord
from games.engine.replay import Replay, replay
from games.engine.ruleset import Kind, Ruleset
from games.engine.schedule import Schedule, ScheduledDeal
from games.engine.scoring import Compensation, Settlement
from games.engine.seats import SEATS, Seat

__all__ = [
    "CARDS",
    "Card",
    "cards_of",
    "mask_of",
    "DealState",
    "LeadOffer",
    "check_hands",
    "KierkiError",
    "RecordFormatError",
    "RulesetError",
    "RuleViolation",
    "VIOLATIONS",
    "DealResult",
    "MatchState",
    "DealRecord",
    "MatchRecord",
    "SaleRecord",
    "Replay",
    "replay",
    "Kind",
    "Ruleset",
    "Schedule",
    "ScheduledDeal",
    "Compensation",
    "Settlement",
    "SEATS",
    "Seat",
]
