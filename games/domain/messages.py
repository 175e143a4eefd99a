"""The engine's errors in the reader's language.

The engine is pure (no Django): it marks its English messages with its own ``gettext_noop``
and keeps the values apart (``KierkiError.template`` and ``params``). Here, at the boundary
(the API's problems, the pages), they are translated with Django's gettext. A rule violation
without a message of its own is named by its code: its title and detail are below, in English
exactly as the engine's docstrings say them (a test holds them together).
"""

from __future__ import annotations

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.engine.errors import KierkiError, RuleViolation, render

# code -> (title, detail). The English detail is the first line of the violation class's docstring.
VIOLATION_TEXTS = {
    "not_your_turn": (_("Not your turn"), _("The card is in another player's hand; ``seat`` is the player on turn.")),
    "card_not_in_hand": (_("Card not in hand"), _("The card is in nobody's hand (already played).")),
    "must_follow_suit": (_("Must follow suit"), _("A player holding the led suit must play a card of it.")),
    "hearts_lead_forbidden": (
        _("Hearts lead forbidden"),
        _("A heart may be led only by a player who holds nothing but hearts."),
    ),
    "king_of_hearts_first_trick": (
        _("King of hearts first trick"),
        _("The king of hearts may not be discarded in the first trick."),
    ),
    "king_of_hearts_first": (
        _("King of hearts first"),
        _("A player discarding a heart while holding the king of hearts must discard the king."),
    ),
    "highest_heart_first": (
        _("Highest heart first"),
        _("With heart_discard: descending, hearts are discarded highest first."),
    ),
    "must_overtake": (
        _("Must overtake"),
        _("In an odgrywka a player who can beat the highest card of the led suit must (nadbijanie)."),
    ),
    "sale_not_allowed": (
        _("Sale not allowed"),
        _("The lead right can be sold only in a compensating odgrywka, before the decision and the first card."),
    ),
    "bad_sale": (_("Bad sale"), _("The buyer is the seller or not at the table, or the price is not 1-13.")),
    "deal_over": (_("Deal over"), _("A play after the 52nd card of the deal.")),
    "match_over": (_("Match over"), _("A deal after the match ended.")),
    "deal_incomplete": (_("Deal incomplete"), _("A deal other than the last has fewer than 52 plays.")),
    "bad_hands": (_("Bad hands"), _("The hands are not 4 × 13 distinct cards of one deck.")),
    "bad_tally": (
        _("Bad tally"),
        _("A tally or points-only deal no split of the deck gives, or a deal with two entries (R32, R33)."),
    ),
    "no_deal_in_play": (_("No deal in play"), _("There is no deal in play: start the next deal first.")),
    "deal_in_play": (_("Deal in play"), _("The current deal is not finished yet.")),
    "ruling_not_allowed": (
        _("Ruling not allowed"),
        _("The ruling does not fit the match: only the latest finished deal can be voided, before the next starts."),
    ),
}


def engine_message(error: KierkiError) -> str:
    """An engine error's own message (``template`` with ``params``), translated."""
    return render(gettext(error.template), error.params)


def violation_title(code: str) -> str:
    """The title of a rule violation's problem type, translated (the code, for one not listed)."""
    texts = VIOLATION_TEXTS.get(code)
    return str(texts[0]) if texts else code.replace("_", " ").capitalize()


def violation_detail(violation: RuleViolation) -> str:
    """What the violation says, translated: its own message, else its code's."""
    if violation.template:
        return engine_message(violation)
    texts = VIOLATION_TEXTS.get(violation.code)
    return str(texts[1]) if texts else violation.detail


def violation_text(violation: RuleViolation) -> str:
    """The violation with its code, rule and place, translated (``str(violation)``'s counterpart)."""
    where = []
    if violation.deal is not None:
        where.append(gettext("deal %(number)s") % {"number": violation.deal})
    if violation.play_index is not None:
        where.append(gettext("play %(number)s") % {"number": violation.play_index})
    if violation.seat is not None:
        where.append(gettext("seat %(seat)s") % {"seat": violation.seat})
    if violation.card is not None:
        where.append(gettext("card %(card)s") % {"card": violation.card})
    suffix = f" ({', '.join(where)})" if where else ""
    return f"{violation.code} [{violation.rule}]: {violation_detail(violation)}{suffix}"
