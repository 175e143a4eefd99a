"""Typed errors. Every rule violation carries its R30 code and the rule id it breaks."""

from __future__ import annotations

from typing import Any


def gettext_noop(message: str) -> str:
    """Marks an English message for translation and returns it as it is. The engine imports no
    Django; ``makemessages`` collects the strings passed to a function of this name (Django's
    own ``gettext_noop`` is the same identity), and the Django side shows an error in the
    reader's language from its ``template`` and ``params`` (``games.domain.messages``)."""
    return message


class KierkiError(Exception):
    """Base of every error the engine raises.

    ``template`` is the English message as marked for translation (``%(name)s`` placeholders)
    and ``params`` its values, so that a caller can translate the message; empty for an error
    whose text is its class's (a rule violation's docstring)."""

    template: str = ""
    params: dict[str, Any] = {}


def render(template: str, params: dict[str, Any]) -> str:
    """``template`` with ``params`` filled in (``%``-formatting, as gettext catalogues expect)."""
    return template % params if params else template


class RulesetError(KierkiError, ValueError):
    """An unknown ruleset option or a bad option value."""

    def __init__(self, message: str, *, field: str | None = None, **params: Any):
        super().__init__(render(message, params))
        self.field = field
        self.template = message
        self.params = params


class RecordFormatError(KierkiError, ValueError):
    """A record that cannot be read at all: bad JSON, a missing key, a string that is not a card.

    ``field`` is the JSON path of the offending value, e.g. ``deals[2].plays[17]``.
    """

    def __init__(self, message: str, *, field: str = "", **params: Any):
        reason = render(message, params)
        super().__init__(f"{field}: {reason}" if field else reason)
        self.field = field
        self.reason = reason
        self.template = message
        self.params = params


class RuleViolation(KierkiError):
    """An illegal event (R30): rejected whole, with the rule it breaks.

    Subclasses fix ``code`` and ``rule``; an instance carries where it happened. ``detail``
    defaults to the first line of the class's docstring; a more precise one is a template
    marked with ``gettext_noop`` and filled from ``params``.
    """

    code = "rule_violation"
    rule = "R30"

    def __init__(
        self,
        *,
        seat=None,
        card=None,
        deal: int | None = None,
        play_index: int | None = None,
        detail: str | None = None,
        rule: str | None = None,
        **params: Any,
    ):
        if rule is not None:
            self.rule = rule  # e.g. must_follow_suit is R11 in a rozbójnik, R16 in an odgrywka
        self.seat = seat
        self.card = card
        self.deal = deal
        self.play_index = play_index
        self.template = detail or ""
        self.params = params
        self.detail = render(detail, params) if detail else self.__doc__.strip().splitlines()[0]
        super().__init__(self._message())

    def located(self, *, deal: int | None = None, play_index: int | None = None) -> RuleViolation:
        """The same violation with its place in a match filled in."""
        if deal is not None:
            self.deal = deal
        if play_index is not None:
            self.play_index = play_index
        self.args = (self._message(),)
        return self

    def as_json(self) -> dict[str, Any]:
        """The error object of RECORD_FORMAT.md."""
        return {
            "code": self.code,
            "deal": self.deal,
            "play_index": self.play_index,
            "seat": None if self.seat is None else str(self.seat),
            "card": None if self.card is None else str(self.card),
        }

    def _message(self) -> str:
        where = []
        if self.deal is not None:
            where.append(f"deal {self.deal}")
        if self.play_index is not None:
            where.append(f"play {self.play_index}")
        if self.seat is not None:
            where.append(f"seat {self.seat}")
        if self.card is not None:
            where.append(f"card {self.card}")
        suffix = f" ({', '.join(where)})" if where else ""
        return f"{self.code} [{self.rule}]: {self.detail}{suffix}"


class NotYourTurn(RuleViolation):
    """The card is in another player's hand; ``seat`` is the player on turn."""

    code, rule = "not_your_turn", "R1"


class CardNotInHand(RuleViolation):
    """The card is in nobody's hand (already played)."""

    code, rule = "card_not_in_hand", "R2"


class MustFollowSuit(RuleViolation):
    """A player holding the led suit must play a card of it."""

    code, rule = "must_follow_suit", "R11"


class HeartsLeadForbidden(RuleViolation):
    """A heart may be led only by a player who holds nothing but hearts."""

    code, rule = "hearts_lead_forbidden", "R10"


class KingOfHeartsFirstTrick(RuleViolation):
    """The king of hearts may not be discarded in the first trick."""

    code, rule = "king_of_hearts_first_trick", "R12a"


class KingOfHeartsFirst(RuleViolation):
    """A player discarding a heart while holding the king of hearts must discard the king."""

    code, rule = "king_of_hearts_first", "R12b"


class HighestHeartFirst(RuleViolation):
    """With heart_discard: descending, hearts are discarded highest first."""

    code, rule = "highest_heart_first", "R12c"


class MustOvertake(RuleViolation):
    """In an odgrywka a player who can beat the highest card of the led suit must (nadbijanie)."""

    code, rule = "must_overtake", "R16"


class SaleNotAllowed(RuleViolation):
    """The lead right can be sold only in a compensating odgrywka, before the decision and the first card."""

    code, rule = "sale_not_allowed", "R26"


class BadSale(RuleViolation):
    """The buyer is the seller or not at the table, or the price is not 1-13."""

    code, rule = "bad_sale", "R26"


class DealOver(RuleViolation):
    """A play after the 52nd card of the deal."""

    code, rule = "deal_over", "R2"


class MatchOver(RuleViolation):
    """A deal after the match ended."""

    code, rule = "match_over", "R7"


class DealIncomplete(RuleViolation):
    """A deal other than the last has fewer than 52 plays."""

    code, rule = "deal_incomplete", "R7"


class BadHands(RuleViolation):
    """The hands are not 4 × 13 distinct cards of one deck."""

    code, rule = "bad_hands", "R2"


class BadTally(RuleViolation):
    """A tally or points-only deal no split of the deck gives, or a deal with two entries (R32, R33)."""

    code, rule = "bad_tally", "R32"


class NoDealInPlay(RuleViolation):
    """There is no deal in play: start the next deal first."""

    code, rule = "no_deal_in_play", "R7"


class DealInPlay(RuleViolation):
    """The current deal is not finished yet."""

    code, rule = "deal_in_play", "R7"


class RulingNotAllowed(RuleViolation):
    """The ruling does not fit the match: only the latest finished deal can be voided, before the next starts."""

    code, rule = "ruling_not_allowed", "R7"


VIOLATIONS: dict[str, type[RuleViolation]] = {cls.code: cls for cls in RuleViolation.__subclasses__()}
