"""Formatting for the pages: points with a real minus sign, multipliers, cards with suit symbols."""
from django import template
from django.utils.html import format_html

register = template.Library()

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANK_NAMES = {"T": "ten", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}
RANK_FACES = {"T": "10"}


@register.filter
def points(value) -> str:
    """−26, 0, +130: the sign always shown, with a typographic minus."""
    if value is None or value == "":
        return ""
    value = int(value)
    return f"−{-value}" if value < 0 else (f"+{value}" if value > 0 else "0")


@register.filter
def per_match(value) -> str:
    """A balance per match to two places, signed like ``points``."""
    if value is None or value == "":
        return ""
    value = float(value)
    return f"−{-value:.2f}" if value < 0 else (f"+{value:.2f}" if value > 0 else "0.00")


@register.filter
def multiplier(value) -> str:
    """×2, ×3, ×4; nothing for a plain deal."""
    return f"×{value}" if value and int(value) > 1 else ""


@register.filter
def card_label(name: str) -> str:
    """``QH`` → ``queen of hearts``."""
    rank, suit = name[0], name[1]
    return f"{RANK_NAMES.get(rank, rank)} of {SUIT_NAMES[suit]}"


@register.filter
def card(name: str):
    """A card as the page shows it: rank and suit symbol, coloured by suit."""
    rank, suit = name[0], name[1]
    return format_html('<span class="card suit-{}" data-card="{}" title="{}">{}<span class="suit">{}</span></span>',
                       suit, name, card_label(name), RANK_FACES.get(rank, rank), SUIT_SYMBOLS[suit])
