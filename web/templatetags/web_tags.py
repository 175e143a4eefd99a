"""Formatting for the pages: points with a real minus sign, multipliers, cards with suit symbols,
in the reader's language (card names, decimal separators, the deal viewer's sentences)."""

from django import template
from django.utils.html import format_html
from django.utils.translation import gettext, pgettext_lazy

from games.models import Dispute
from printing import formats

register = template.Library()

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES = {
    "S": pgettext_lazy("suit", "spades"),
    "H": pgettext_lazy("suit", "hearts"),
    "D": pgettext_lazy("suit", "diamonds"),
    "C": pgettext_lazy("suit", "clubs"),
}
RANK_NAMES = {
    "T": pgettext_lazy("rank", "ten"),
    "J": pgettext_lazy("rank", "jack"),
    "Q": pgettext_lazy("rank", "queen"),
    "K": pgettext_lazy("rank", "king"),
    "A": pgettext_lazy("rank", "ace"),
}
RANK_FACES = {"T": "10"}
COMPENSATING = {
    "rozbojnik": pgettext_lazy("a compensating rozbójnik", "compensating"),
    "odgrywka": pgettext_lazy("a compensating odgrywka", "compensating"),
}


@register.filter
def points(value) -> str:
    """−26, 0, +130: the sign always shown, with a typographic minus (``printing.formats``)."""
    return formats.signed(value)


@register.filter
def cost(value) -> str:
    """A card's cost, points lost: ``[12, 12]`` → −12; a range known only by its proven ends,
    ``[12, 40]`` → −12…−40 (lost at both ends, never read as "−12 to +40"), ``[0, 40]`` → 0…−40.
    viewer.js's ``costText`` writes the same in the analysis panel."""
    low, high = value
    least = f"−{low}" if low else "0"
    return least if low == high else f"{least}…−{high}"


@register.filter
def per_match(value) -> str:
    """A balance per match to two places, signed like ``points``, with the language's decimal
    separator (−12,50 in Polish)."""
    return formats.signed(value, 2)


@register.filter
def number(value, places=0) -> str:
    """A number with the language's decimal separator and a real minus sign: ``|number:1``."""
    return formats.number(value, int(places))


@register.filter
def long_date(value) -> str:
    """3 grudnia 2026 (a moment first put in Warsaw time)."""
    return formats.long_date(value)


@register.filter
def long_datetime(value) -> str:
    """3 grudnia 2026 19:05, Warsaw time."""
    return formats.long_datetime(value)


@register.filter
def person(value) -> str:
    """A user or a player by the name people know him by (``printing.formats.person``)."""
    return formats.person(value)


@register.filter
def multiplier(value) -> str:
    """×2, ×3, ×4; nothing for a plain deal."""
    return f"×{value}" if value and int(value) > 1 else ""


@register.filter
def kind_label(kind: str) -> str:
    """``rozbojnik`` (the enum value) → ``rozbójnik``."""
    return formats.kind_label(kind)


@register.filter
def compensating(kind: str) -> str:
    """ "compensating", agreeing with the deal's kind (in Polish: dodatkowy rozbójnik, dodatkowa
    odgrywka)."""
    return str(COMPENSATING.get(kind, COMPENSATING["rozbojnik"]))


@register.filter
def dispute_status(status: str) -> str:
    """A dispute's status (``open``, ``ruled``) as the reader says it."""
    try:
        return str(Dispute.Status(status).label)
    except ValueError:
        return status


@register.filter
def card_label(name: str) -> str:
    """``QH`` → ``queen of hearts`` (``dama kier``)."""
    rank, suit = name[0], name[1]
    return gettext("%(rank)s of %(suit)s") % {"rank": RANK_NAMES.get(rank, rank), "suit": SUIT_NAMES[suit]}


@register.filter
def card(name: str):
    """A card as the page shows it: rank and suit symbol, coloured by suit."""
    rank, suit = name[0], name[1]
    return format_html(
        '<span class="card suit-{}" data-card="{}" title="{}">{}<span class="suit">{}</span></span>',
        suit,
        name,
        card_label(name),
        RANK_FACES.get(rank, rank),
        SUIT_SYMBOLS[suit],
    )


@register.simple_tag
def viewer_texts() -> dict:
    """What web/static/web/viewer.js says, in the reader's language: ``%(name)s`` placeholders
    that the script fills in (embedded with ``json_script``; the script fetches nothing)."""
    return {
        "suits": {suit: str(label) for suit, label in SUIT_NAMES.items()},
        "ranks": {rank: str(label) for rank, label in RANK_NAMES.items()},
        "statuses": {status.value: str(status.label) for status in Dispute.Status},
        "card": gettext("%(rank)s of %(suit)s"),
        "legal_card": gettext("%(card)s (legal)"),
        "none": gettext("none"),
        "trick": gettext("Trick %(number)s"),
        "trick_won": gettext("Trick %(number)s: won by %(who)s"),
        "trick_to_play": gettext("Trick %(number)s: %(who)s to play"),
        "trick_to_lead": gettext("Trick %(number)s: %(who)s to lead"),
        "dealt": gettext("The hands as dealt."),
        "leads": gettext("%(who)s leads."),
        "plays": gettext("Play %(number)s (trick %(trick)s): %(who)s plays the %(card)s."),
        "cannot_play": gettext("Play %(number)s (trick %(trick)s): %(who)s cannot play the %(card)s."),
        "wins": gettext("%(who)s wins trick %(trick)s."),
        "illegal": gettext("Illegal: %(code)s (%(rule)s)."),
        "legal_intro": gettext("%(seat)s could play (%(count)s): "),
        "legal_list": gettext("Legal cards for %(seat)s"),
        "played": gettext("%(card)s (played)"),
        "breaks": gettext("Breaks %(rule)s (%(code)s): "),
        "stops": gettext("The card cannot be put on the table: the record stops here."),
        "disputed": gettext("Disputed play."),
        "disputed_legal": gettext("Disputed play — no rule broken: it was legal."),
        "counter_dealt": gettext("Dealt · 0 / %(last)s"),
        "counter_play": gettext("Play %(number)s / %(last)s"),
        "analysis_loading": gettext("Analysing…"),
        "analysis_not_exact": gettext(
            "Not exact: the search used up its budget; each value is a proven range, from the least to the "
            "most it can be."
        ),
        "analysis_unavailable": gettext("No analysis for this position."),
        "analysis_cards": gettext(
            "Each legal card: what the seat on turn guarantees after it, and its cost against the best card"
        ),
    }


INVITATION_STATUSES = {
    "pending": pgettext_lazy("invitation", "pending"),
    "claimed": pgettext_lazy("invitation", "claimed"),
    "expired": pgettext_lazy("invitation", "expired"),
}


@register.filter
def role_label(value) -> str:
    """A club role (``admin``, ``scorer``, ``member``) in the reader's language (the value stays English)."""
    from scoring.models import Membership

    return str(Membership.Role(value).label) if value in Membership.Role.values else (value or "")


@register.filter
def invitation_status_label(value) -> str:
    """An invitation's status (``pending``, ``claimed``, ``expired``) in the reader's language."""
    return str(INVITATION_STATUSES.get(value, value))


GRADE_MARKS = {"best": "✓", "inaccuracy": "?!", "mistake": "?", "blunder": "??", None: "~"}  # as chess annotates
GRADE_NAMES = {
    "best": pgettext_lazy("grade", "best"),
    "inaccuracy": pgettext_lazy("grade", "inaccuracy"),
    "mistake": pgettext_lazy("grade", "mistake"),
    "blunder": pgettext_lazy("grade", "blunder"),
    None: pgettext_lazy("grade", "not graded"),
}


@register.filter
def grade_mark(note):
    """A card's grade (a note, or a grade's name) as a symbol, never colour alone, with its name
    for screen readers and on hover; ``web/viewer.css`` colours it by grade."""
    grade = note.get("grade") if isinstance(note, dict) else note
    grade = grade if grade in GRADE_MARKS else None
    return format_html(
        '<span class="grade-mark grade-{}" title="{}"><span aria-hidden="true">{}</span>'
        '<span class="sr">{}</span></span>',
        grade or "unknown",
        GRADE_NAMES[grade],
        GRADE_MARKS[grade],
        GRADE_NAMES[grade],
    )


@register.filter
def grade_name(note) -> str:
    grade = note.get("grade") if isinstance(note, dict) else note
    return str(GRADE_NAMES[grade if grade in GRADE_MARKS else None])
