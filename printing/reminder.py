"""The point values printed at the foot of a score sheet, taken from the engine's constants
and the match's ruleset (so they are never written down twice)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.engine import Ruleset, scoring
from games.engine.cards import BY_NAME


def point_reminder(ruleset: Ruleset) -> list[str]:
    heart, queen, king, jack = (scoring.CARD_PENALTY[BY_NAME[card]] for card in ("2H", "QS", "KS", "JS"))
    king_of_hearts = scoring.CARD_PENALTY[BY_NAME["KH"]] - heart - king
    first, second = ruleset.last_tricks
    return [
        _(
            "Rozbójnik (R14, R15): %(trick)d per trick, %(heart)d per heart, %(queen)d per queen, %(king)d per king, "
            "%(jack)d per jack, %(kh)d more for the king of hearts, %(last)d more for tricks %(first)d and %(second)d "
            "— %(pool)d per deal."
        )
        % {
            "trick": scoring.TRICK_PENALTY,
            "heart": heart,
            "queen": queen,
            "king": king,
            "jack": jack,
            "kh": king_of_hearts,
            "last": scoring.LAST_TRICK_PENALTY,
            "first": first,
            "second": second,
            "pool": scoring.POOL,
        },
        _("Odgrywka (R17): %(points)d per trick — %(pool)d per deal.")
        % {"points": scoring.ODGRYWKA_TRICK_POINTS, "pool": scoring.POOL},
        _(
            "No trick: in a rozbójnik a kreska (R20), in an odgrywka 0 points (R22); the deal is played again as "
            "compensating deals (R7, R23, R24). All 13 tricks in a rozbójnik: Max, 2 kreski, the others −%(pool)d "
            "(R21)."
        )
        % {"pool": scoring.POOL},
        _("Lead sale (R27): the buyer pays %(points)d × the price to the seller.")
        % {"points": scoring.SALE_POINTS_PER_TRICK},
    ]
