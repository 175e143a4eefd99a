"""The ruleset: its name, version and the options RULES.md lets a club choose (R5, R12c, R15)."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.engine.errors import RulesetError, gettext_noop

RULESET_NAME = "rozbojnik-odgrywka"
RULESET_VERSION = 1


class Kind(enum.Enum):
    """The two kinds of deal (R4)."""

    ROZBOJNIK = "rozbojnik"  # minus: every penalty at once
    ODGRYWKA = "odgrywka"  # plus: take tricks, no trumps

    @property
    def letter(self) -> str:
        return "R" if self is Kind.ROZBOJNIK else "O"

    @property
    def other(self) -> Kind:
        """R24: a compensating deal is of the other kind."""
        return Kind.ODGRYWKA if self is Kind.ROZBOJNIK else Kind.ROZBOJNIK

    def __str__(self) -> str:
        return self.value


KIND_BY_LETTER = {"R": Kind.ROZBOJNIK, "O": Kind.ODGRYWKA}
HEART_DISCARDS = ("king_first", "descending")  # R12c
DEFAULTS: dict[str, Any] = {
    "regular_deals": ["R", "R", "R", "R", "O", "O", "O", "O"],  # R5
    "heart_discard": "king_first",  # R12c
    "last_tricks": [12, 13],  # R15
}


@dataclass(frozen=True, slots=True)
class Ruleset:
    """A pinned ruleset: name, version and every option resolved to a value."""

    regular_deals: tuple[Kind, ...] = tuple(KIND_BY_LETTER[k] for k in DEFAULTS["regular_deals"])
    heart_discard: str = "king_first"
    last_tricks: tuple[int, int] = (12, 13)
    name: str = RULESET_NAME
    version: int = RULESET_VERSION

    @classmethod
    def from_options(
        cls, options: Mapping[str, Any] | None = None, *, name: str = RULESET_NAME, version: int = RULESET_VERSION
    ) -> Ruleset:
        """Options as in a record's ``ruleset.options``; unknown ones and bad values raise ``RulesetError``."""
        if name != RULESET_NAME:
            raise RulesetError(
                gettext_noop("unknown ruleset name %(name)s (this engine plays %(known)s)"),
                field="name",
                name=repr(name),
                known=repr(RULESET_NAME),
            )
        if version != RULESET_VERSION:
            raise RulesetError(
                gettext_noop("unknown ruleset version %(version)s (this engine plays %(known)s)"),
                field="version",
                version=repr(version),
                known=RULESET_VERSION,
            )
        options = dict(options or {})
        unknown = sorted(set(options) - set(DEFAULTS))
        if unknown:
            raise RulesetError(
                gettext_noop("unknown ruleset option %(option)s (known: %(known)s)"),
                field=unknown[0],
                option=repr(unknown[0]),
                known=", ".join(DEFAULTS),
            )
        return cls(
            regular_deals=_regular_deals(options.get("regular_deals", DEFAULTS["regular_deals"])),
            heart_discard=_heart_discard(options.get("heart_discard", DEFAULTS["heart_discard"])),
            last_tricks=_last_tricks(options.get("last_tricks", DEFAULTS["last_tricks"])),
        )

    def options(self) -> dict[str, Any]:
        """Only what differs from the defaults, as a record stores it."""
        full = {
            "regular_deals": [k.letter for k in self.regular_deals],
            "heart_discard": self.heart_discard,
            "last_tricks": list(self.last_tricks),
        }
        return {key: value for key, value in full.items() if value != DEFAULTS[key]}

    def as_json(self) -> dict[str, Any]:
        return {"name": self.name, "version": self.version, "options": self.options()}


def _regular_deals(value: Any) -> tuple[Kind, ...]:
    if (
        not isinstance(value, list)
        or not value
        or any(not isinstance(k, str) or k not in KIND_BY_LETTER for k in value)
    ):
        raise RulesetError(
            gettext_noop('regular_deals must be a non-empty list of "R"/"O", got %(value)s'),
            field="regular_deals",
            value=repr(value),
        )
    return tuple(KIND_BY_LETTER[k] for k in value)


def _heart_discard(value: Any) -> str:
    if value not in HEART_DISCARDS:
        raise RulesetError(
            gettext_noop("heart_discard must be one of %(known)s, got %(value)s"),
            field="heart_discard",
            known=", ".join(HEART_DISCARDS),
            value=repr(value),
        )
    return value


def _last_tricks(value: Any) -> tuple[int, int]:
    ok = (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(t, int) and not isinstance(t, bool) and 1 <= t <= 13 for t in value)
        and value[0] != value[1]
    )
    if not ok:
        raise RulesetError(
            gettext_noop("last_tricks must be two different trick numbers 1-13, got %(value)s"),
            field="last_tricks",
            value=repr(value),
        )
    return (value[0], value[1])
